// Package fleet is what the replicas of one mcpcore server share when they
// run side by side behind a load balancer: the bus that carries the
// notifications one replica raises to the subscribers connected to the
// others, the rate limiter that counts a quota for the whole fleet rather
// than for each process, and the [TaskStore] that keeps the tasks (tool
// calls that outlive their request) where every replica can answer for
// them, and the [Catalog] of the definitions switched off for the whole
// fleet. [LocalTasks] is the task store of one process; package
// github.com/seed417024ea/mcpcore/fleet/taskstoretest checks any other.
//
// A server shares none of them unless it is given them: through
// [github.com/seed417024ea/mcpcore.ServerOptions] (Bus and Limiter), or, for
// Redis, by MCP_REDIS_URL in a program that gives package
// github.com/seed417024ea/mcpcore/app an opener.Func of package
// github.com/seed417024ea/mcpcore/fleet/opener (redis.Open of package
// github.com/seed417024ea/mcpcore/redis). Without them a server's notifications reach its own
// subscribers only, its rate limits count in its own process, with
// [Local], and its tasks are kept in its own, with [LocalTasks].
//
// Everything else stays with each replica, by design: the sessions of the
// stateful protocol, calls in flight, body bounds. They protect the process
// that holds them; docs/replicas.md says what that means for a fleet.
package fleet
