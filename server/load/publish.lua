-- Publishes a result not seen before on every request (result.json beside it, with a label of its own):
-- wrk's probe of publish latency while load.sh's or endpoints.sh's mix runs.
local result = io.open("result.json"):read("*a")
local counter = 0
local nonce = tostring(os.time()) .. tostring(math.random(1, 1000000))

function request()
  counter = counter + 1
  local body = result:gsub('"label": ""', '"label": "probe ' .. nonce .. '.' .. counter .. '"', 1)
  return wrk.format("POST", "/api/results", { ["Content-Type"] = "application/json" }, body)
end
