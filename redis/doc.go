// Package redis shares a server's notifications, rate limits and tasks among
// its replicas through Redis, so that a fleet behind a load balancer behaves
// as one server: a resource update raised on one replica reaches the
// subscribers connected to every other, a quota of 10 calls a second is 10
// for the fleet, not 10 for each process, and a task one replica runs is
// read, answered and cancelled through any of them ([Fleet.Tasks]).
//
// There are two ways in. [Open], given to package app, makes MCP_REDIS_URL
// take effect:
//
//	app.Main(info, &app.Options{OpenRedis: redis.Open}, defs...)
//
// and the app then opens the URL (redis:// or rediss://) as it starts,
// with short timeouts, and closes the connection as it stops. Or a program
// that builds its own client calls [New] and passes [Fleet.Bus] and
// [Fleet.Limiter] in mcpcore.ServerOptions (fields Bus and Limiter), and
// [Fleet.Tasks] as its field Tasks.
//
// It is a module of its own, so that a server that runs as one replica
// links no Redis client.
//
// Redis being away never stops a replica: it starts without it, its
// notifications reach its own subscribers only, and its rate limits count
// in its own process at its share of each quota (a third of it when three
// replicas were last seen) until Redis returns. Each switch is logged once.
// A call of its task store fails within 200 ms, and the server then runs a
// call synchronously or refuses it as retryable.
//
// Everything a server keeps in Redis is named under mcpcore:<server>:, so
// servers sharing one Redis stay apart and an ACL can grant a server its
// own keys and channel (~mcpcore:<server>:* and &mcpcore:<server>:*):
//
//	mcpcore:<server>:events       the channel the notifications travel on
//	mcpcore:<server>:rate:<key>   one quota's count (GCRA, as redis_rate keeps it)
//	mcpcore:<server>:replicas     a sorted set of the replicas alive
//	mcpcore:<server>:task:{<id>}  one task's hash (its own hash slot on a Cluster)
//	mcpcore:<server>:tasks        the channel that tells a task's owner of an answer or a cancel
package redis
