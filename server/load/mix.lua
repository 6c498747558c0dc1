-- A mix of what the gallery serves, for wrk: 80 % device lists, 10 % a published result, 10 % publishes of
-- a result not seen before (a recorded one with a label of its own). Needs two files beside it, made by
-- load.sh: result.json (the result to publish) and id.txt (a published result's id).
local result = io.open("result.json"):read("*a")
local id = io.open("id.txt"):read("*l")
local counter = 0
-- Labels differ from every earlier run's, so that each publish stores a result (not a duplicate).
local run = tostring(os.time())
thread_id = 0 -- set per thread by setup()
local threads = {}

function setup(thread)
  thread:set("thread_id", #threads)
  table.insert(threads, thread)
end

function request()
  counter = counter + 1
  local pick = counter % 10
  if pick == 0 then
    local body = result:gsub('"label": ""', '"label": "load ' .. run .. '.' .. thread_id .. '.' .. counter .. '"', 1)
    return wrk.format("POST", "/api/results", { ["Content-Type"] = "application/json" }, body)
  elseif pick == 1 then
    return wrk.format("GET", "/api/results/" .. id)
  else
    return wrk.format("GET", "/api/devices?search=h100")
  end
end

local statuses = {}

function response(status)
  statuses[status] = (statuses[status] or 0) + 1
end

function done(summary, latency, requests)
  io.write(string.format("requests/s %.1f  p50 %.2f ms  p99 %.2f ms  errors %d (connect %d, read %d, write %d, status %d, timeout %d)\n",
    summary.requests / (summary.duration / 1e6), latency:percentile(50) / 1000, latency:percentile(99) / 1000,
    summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.status + summary.errors.timeout,
    summary.errors.connect, summary.errors.read, summary.errors.write, summary.errors.status, summary.errors.timeout))
end
