package redis

import goredis "github.com/redis/go-redis/v9"

// The task store's scripts. Each is one atomic step on one key, KEYS[1],
// the task's hash (so each is safe on a Redis Cluster), run by EVALSHA.
// The fields of the hash:
//
//	t tool, p principal, o owner, oj the owner as a JSON string, s status,
//	m statusMessage, c created and u updated (Unix ms, Redis's clock),
//	ttl (ms), pi poll interval (ns), r outcome, q:<key> an outstanding
//	question, a:<key> an answer not taken yet, nq the questions
//	outstanding, bq and ba the bytes of the questions and the answers
//	(keys and values), so that a bound is checked without reading them.
//
// Every time is Redis's (TIME): the replicas share one clock, the one that
// also expires the key. A record is gone at c+ttl exactly, whatever the
// precision of Redis's own expiry: each script treats it as absent from
// then, and deletes it. Numbers are written with %.0f, which prints an
// integer plainly in Redis's Lua and in miniredis's.
const taskPrelude = `
local key = KEYS[1]
local function now_ms()
  local t = redis.call('TIME')
  return tonumber(t[1]) * 1000 + math.floor(tonumber(t[2]) / 1000)
end
local function str(n) return string.format('%.0f', n) end
local function terminal(s) return s == 'completed' or s == 'failed' or s == 'cancelled' end
local function strlen(f) return redis.call('HSTRLEN', key, f) end
-- live reads c, ttl and the fields named of the record, or returns nil
-- when there is none or it has expired (deleting it then).
local function live(now, ...)
  local v = redis.call('HMGET', key, 'c', 'ttl', ...)
  if not v[1] then return nil end
  if now >= tonumber(v[1]) + tonumber(v[2]) then
    redis.call('DEL', key)
    return nil
  end
  return v
end
-- base is the bytes of the fields named, as the record's bound counts them.
local function base(...)
  local n = 0
  for _, f in ipairs({...}) do n = n + strlen(f) end
  return n
end
-- hset_from writes the field-value pairs of ARGV from index i on, a chunk
-- at a time, so that no call unpacks more than Lua's stack holds.
local function hset_from(i)
  local n = #ARGV
  while i <= n do
    local j = math.min(i + 199, n)
    redis.call('HSET', key, unpack(ARGV, i, j))
    i = j + 1
  end
end
-- retain grows the TTL of a task ending now so that it stays readable
-- retention ms more, and sets the key's expiry to match.
local function retain(now, c, ttl, retention)
  local need = now + retention - c
  if need > ttl then ttl = need end
  redis.call('HSET', key, 'ttl', str(ttl))
  redis.call('PEXPIREAT', key, str(c + ttl))
end
-- drop deletes the questions, the answers, or both.
local function drop(questions, answers)
  for _, f in ipairs(redis.call('HKEYS', key)) do
    local p = string.sub(f, 1, 2)
    if (questions and p == 'q:') or (answers and p == 'a:') then redis.call('HDEL', key, f) end
  end
end
-- finish ends the task as status, for Cancel and Abandon: never weighed
-- against the bound, so that neither is refused for lack of room.
local function finish(now, v, status, msg, outcome, retention)
  drop(true, true)
  redis.call('HSET', key, 's', status, 'm', msg, 'nq', '0', 'bq', '0', 'ba', '0', 'u', str(now))
  if outcome == '' then redis.call('HDEL', key, 'r') else redis.call('HSET', key, 'r', outcome) end
  retain(now, tonumber(v[1]), tonumber(v[2]), retention)
end
`

// taskGet: ARGV principal. Returns {"ok", fields} or {"notfound"}.
var taskGet = goredis.NewScript(taskPrelude + `
local v = live(now_ms(), 'p')
if not v or v[3] ~= ARGV[1] then return {'notfound'} end
return {'ok', redis.call('HGETALL', key)}
`)

// taskCreate: ARGV retention (ms), status, ttl (ms), then the other
// fields as pairs. Returns {"ok", created, ttl} or {"exists"}.
var taskCreate = goredis.NewScript(taskPrelude + `
local now = now_ms()
if live(now) then return {'exists'} end
local ttl = tonumber(ARGV[3])
redis.call('HSET', key, 's', ARGV[2], 'c', str(now), 'u', str(now), 'ttl', str(ttl))
hset_from(4)
if terminal(ARGV[2]) then
  retain(now, now, ttl, tonumber(ARGV[1]))
  ttl = tonumber(redis.call('HGET', key, 'ttl'))
else
  redis.call('PEXPIREAT', key, str(now + ttl))
end
return {'ok', str(now), str(ttl)}
`)

// taskUpdate: ARGV owner, retention (ms), bound (bytes), status ("":
// keep), has message ("1"), message, take answers ("1"), outcome,
// questions outstanding, their bytes, then the questions as pairs
// ("q:<key>", value). Returns {"ok", fields, taken answers as pairs},
// {"ended", fields}, {"notfound"}, {"notowner"} or {"full"}.
var taskUpdate = goredis.NewScript(taskPrelude + `
local now = now_ms()
local v = live(now, 'o', 's', 'bq', 'ba')
if not v then return {'notfound'} end
if v[3] ~= ARGV[1] then return {'notowner'} end
if terminal(v[4]) then return {'ended', redis.call('HGETALL', key)} end
local restate = ARGV[4] ~= ''
local status = v[4]
if restate then status = ARGV[4] end
local take = ARGV[7] == '1'
local drop_answers = take or terminal(status)

local size = base('t', 'p', 'o')
if ARGV[5] == '1' then size = size + #ARGV[6] else size = size + strlen('m') end
if restate then size = size + #ARGV[8] + tonumber(ARGV[10]) else size = size + strlen('r') + tonumber(v[5]) end
if not drop_answers then size = size + tonumber(v[6]) end
if size > tonumber(ARGV[3]) then return {'full'} end

local taken = {}
if take then
  local flat = redis.call('HGETALL', key)
  for i = 1, #flat, 2 do
    if string.sub(flat[i], 1, 2) == 'a:' then
      taken[#taken + 1] = flat[i]
      taken[#taken + 1] = flat[i + 1]
    end
  end
end
if restate or drop_answers then drop(restate, drop_answers) end
if restate then
  redis.call('HSET', key, 's', status, 'nq', ARGV[9], 'bq', ARGV[10])
  if ARGV[8] == '' then redis.call('HDEL', key, 'r') else redis.call('HSET', key, 'r', ARGV[8]) end
  hset_from(11)
end
if ARGV[5] == '1' then redis.call('HSET', key, 'm', ARGV[6]) end
if drop_answers then redis.call('HSET', key, 'ba', '0') end
redis.call('HSET', key, 'u', str(now))
if terminal(status) then retain(now, tonumber(v[1]), tonumber(v[2]), tonumber(ARGV[2])) end
return {'ok', redis.call('HGETALL', key), taken}
`)

// taskAnswer: ARGV principal, bound (bytes), channel, signal prefix, then
// the answers as pairs (key, value). Each key is one HEXISTS, and no JSON
// is read: the cost is linear in the answers given. Returns {"ok"},
// {"notfound"}, {"ended"} or {"full"}.
var taskAnswer = goredis.NewScript(taskPrelude + `
local now = now_ms()
local v = live(now, 'p', 's', 'nq', 'bq', 'ba', 'oj')
if not v or v[3] ~= ARGV[1] then return {'notfound'} end
if terminal(v[4]) then return {'ended'} end
local nq, bq, ba = tonumber(v[5]), tonumber(v[6]), tonumber(v[7])
local asked, grow, moved = {}, 0, 0
for i = 5, #ARGV, 2 do
  local q = 'q:' .. ARGV[i]
  if redis.call('HEXISTS', key, q) == 1 then
    local ql = strlen(q)
    asked[i] = ql
    grow = grow + #ARGV[i + 1] - ql
    moved = moved + 1
  end
end
if moved == 0 then return {'ok'} end
if base('t', 'p', 'o', 'm', 'r') + bq + ba + grow > tonumber(ARGV[2]) then return {'full'} end
for i = 5, #ARGV, 2 do
  local ql = asked[i]
  if ql then
    local k, a = ARGV[i], ARGV[i + 1]
    redis.call('HDEL', key, 'q:' .. k)
    redis.call('HSET', key, 'a:' .. k, a)
    bq = bq - #k - ql
    ba = ba + #k + #a
  end
end
nq = nq - moved
local s = v[4]
if nq <= 0 and s == 'input_required' then s = 'working' end
redis.call('HSET', key, 's', s, 'nq', str(nq), 'bq', str(bq), 'ba', str(ba), 'u', str(now))
redis.call('PUBLISH', ARGV[3], ARGV[4] .. v[8] .. '}')
return {'ok'}
`)

// taskCancel: ARGV principal, retention (ms), message, channel, signal
// prefix. Returns {"ok"}, {"notfound"} or {"ended"}.
var taskCancel = goredis.NewScript(taskPrelude + `
local now = now_ms()
local v = live(now, 'p', 's', 'oj')
if not v or v[3] ~= ARGV[1] then return {'notfound'} end
if terminal(v[4]) then return {'ended'} end
finish(now, v, 'cancelled', ARGV[3], '', tonumber(ARGV[2]))
redis.call('PUBLISH', ARGV[4], ARGV[5] .. v[5] .. '}')
return {'ok'}
`)

// taskAbandon: ARGV owner, retention (ms), message, outcome, channel,
// signal prefix. Returns {"ok", fields}, {"ended", fields}, {"notfound"}
// or {"notowner"}.
var taskAbandon = goredis.NewScript(taskPrelude + `
local now = now_ms()
local v = live(now, 'o', 's', 'oj')
if not v then return {'notfound'} end
if v[3] ~= ARGV[1] then return {'notowner'} end
if terminal(v[4]) then return {'ended', redis.call('HGETALL', key)} end
finish(now, v, 'failed', ARGV[3], ARGV[4], tonumber(ARGV[2]))
redis.call('PUBLISH', ARGV[5], ARGV[6] .. v[5] .. '}')
return {'ok', redis.call('HGETALL', key)}
`)
