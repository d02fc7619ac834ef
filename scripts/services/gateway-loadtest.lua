-- wrk script of the gateway load test (loadtest.sh).
--
-- Each thread sends GET /api/mix/0, /api/mix/1, ... /api/mix/19, /api/mix/0, ... in turn, so the
-- upstream's answer mix is known exactly from the number of requests each thread sent: slot k of
-- a thread that sent n requests was sent floor(n / 20) + (k < n % 20 and 1 or 0) times.
--
-- With an argument (`wrk ... -s loadtest.lua URL -- QUOTA`), each thread sends exactly QUOTA
-- requests to /api, then only GET /health (not proxied, not classified) until all QUOTA are
-- answered, and stops: no /api request is left in flight, so the gateway's counts can be compared
-- with what was sent exactly. (wrk itself runs until -d or SIGINT.)
--
-- It counts the /api answers by status (200, 401, anything else) and prints one line at the end:
--   RESULT requests=… seconds=… rps=… p50_us=… p99_us=… connect=… read=… write=… timeout=…
--          non2xx=… answered=… status200=… status401=… other=… sent=… slots=c0,c1,…,c19
-- where requests, rps, non2xx and the latencies are wrk's own (every request), and answered,
-- status200, status401, other, sent and slots count /api requests only.

local slots = 20
local prepared = {}
local health = nil

-- Globals, not locals: done() reads them from each thread with thread:get().
quota = 0
sent = 0
answered = 0
status200 = 0
status401 = 0
other = 0

-- Every thread, to add their counts up in done().
local threads = {}

-- wrk calls request() once on its first thread before any connection exists, to check the
-- request (script_verify_request in wrk.c), and never sends that one: it must not be counted.
-- setup() runs before that thread's init(), so it tells the first thread to skip one call.
verifying = false

function setup(thread)
   table.insert(threads, thread)
   thread:set("verifying", #threads == 1)
end

function init(args)
   quota = tonumber(args[1]) or 0
   for k = 0, slots - 1 do
      prepared[k] = wrk.format("GET", "/api/mix/" .. k)
   end
   health = wrk.format("GET", "/health")
end

function request()
   if verifying then
      verifying = false
      return prepared[0]
   end
   if quota > 0 and sent >= quota then
      return health
   end
   local r = prepared[sent % slots]
   sent = sent + 1
   return r
end

function response(status, headers, body)
   if quota > 0 and body == "ok" then
      return -- a /health answer
   end
   answered = answered + 1
   if status == 200 then
      status200 = status200 + 1
   elseif status == 401 then
      status401 = status401 + 1
   else
      other = other + 1
   end
   if quota > 0 and answered == quota then
      wrk.thread:stop()
   end
end

function done(summary, latency, requests)
   local total = { sent = 0, answered = 0, status200 = 0, status401 = 0, other = 0 }
   local perSlot = {}
   for k = 0, slots - 1 do perSlot[k] = 0 end
   for _, thread in ipairs(threads) do
      local n = thread:get("sent")
      for name, _ in pairs(total) do
         total[name] = total[name] + thread:get(name)
      end
      for k = 0, slots - 1 do
         perSlot[k] = perSlot[k] + math.floor(n / slots) + ((k < n % slots) and 1 or 0)
      end
   end
   local list = {}
   for k = 0, slots - 1 do list[#list + 1] = tostring(perSlot[k]) end
   local seconds = summary.duration / 1e6
   io.write(string.format(
      "RESULT requests=%d seconds=%.3f rps=%.1f p50_us=%d p99_us=%d connect=%d read=%d write=%d timeout=%d "
         .. "non2xx=%d answered=%d status200=%d status401=%d other=%d sent=%d slots=%s\n",
      summary.requests, seconds, summary.requests / seconds, latency:percentile(50), latency:percentile(99),
      summary.errors.connect, summary.errors.read, summary.errors.write, summary.errors.timeout,
      summary.errors.status, total.answered, total.status200, total.status401, total.other, total.sent,
      table.concat(list, ",")))
end
