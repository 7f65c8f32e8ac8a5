// Package cluster proves that replicas of an mcpcore server work behind a
// stock balancer: its test (run by make cluster, part of make test) starts
// Redis, haproxy with deploy/haproxy.cfg and three replicas on loopback,
// runs the official MCP conformance suite through the balancer (failing on
// any FAILURE of its unscored tasks-* scenarios), kills, stops and
// restarts replicas and Redis in the middle of calls and tasks, and writes
// what each check saw, with its timing, to the summary file. scripts/cluster.sh installs
// what it needs and runs it; without MCPCORE_CLUSTER=1 the test skips.
package cluster
