-- wrk script of bench/api_load.py: each wrk thread owns one connection and replays
-- its own plan file (bench/load_plan.py writes them), one request after another.
--
--   wrk -t32 -c32 -d20s --latency -s bench/wrk_moves.lua URL -- PLAN_DIR TOKEN WRAP [KEYS]
--
-- A plan line is KIND<TAB>PATH<TAB>VERSION<TAB>BODY: KIND is M (a move, answered 200)
-- or R (a round start, answered 201); VERSION is the match's version after its
-- creation on a match's first line, else "-" (the ETag of the last answer is sent as
-- If-Match). A thread advances only on the expected answer: any other is counted as
-- refused and the rest of that match is skipped (its moves no longer fit it). WRAP=1
-- replays the plan from the top when it runs out (the baseline checks nothing);
-- otherwise an exhausted thread only asks GET /health, counted apart, and the
-- driver reports the plan as too short. KEYS, when given, sends every write an
-- Idempotency-Key of its own, KEYS-THREAD-LINE-WRAPS (as the scorer's pad does):
-- KEYS must differ from run to run, the keys being the token's for good.

local threads = {}
local next_id = 0

function setup(thread)
  thread:set("id", next_id)
  next_id = next_id + 1
  table.insert(threads, thread)
end

function init(args)
  local plan_dir, token = args[1], args[2]
  wrap = args[3] == "1"
  keys = args[4]
  auth = "Bearer " .. token
  plan = {}
  for line in io.lines(plan_dir .. "/" .. id .. ".plan") do
    local kind, path, version, body = line:match("^(%a)\t([^\t]+)\t([^\t]+)\t(.*)$")
    table.insert(plan, { kind = kind, path = path, version = version, body = body })
  end
  pos = 1
  version = "0"
  moves, rounds, refused, idle, wraps = 0, 0, 0, 0, 0
  refusals = ""
end

function request()
  local item = plan[pos]
  if item == nil and wrap then
    pos, wraps = 1, wraps + 1
    item = plan[1]
  end
  if item == nil then
    return wrk.format("GET", "/health")
  end
  if item.version ~= "-" then
    version = item.version
  end
  local headers = {
    ["Content-Type"] = "application/json",
    ["Authorization"] = auth,
    ["If-Match"] = '"' .. version .. '"',
  }
  if keys ~= nil and keys ~= "" then
    headers["Idempotency-Key"] = keys .. "-" .. id .. "-" .. pos .. "-" .. wraps
  end
  return wrk.format("POST", item.path, headers, item.body)
end

function response(status, headers, body)
  local item = plan[pos]
  if item == nil then
    idle = idle + 1
    return
  end
  local expected = (item.kind == "M") and 200 or 201
  if status == expected then
    local etag = headers["etag"] or headers["ETag"] or ""
    version = etag:match("(%d+)") or version
    if item.kind == "M" then moves = moves + 1 else rounds = rounds + 1 end
    pos = pos + 1
    return
  end
  refused = refused + 1
  if #refusals < 2000 then
    refusals = refusals .. status .. " " .. item.path .. " " .. body:sub(1, 160):gsub("[\t\n\"\\]", " ") .. "\n"
  end
  local path = item.path:match("^(/matches/[^/]+)")
  while plan[pos] ~= nil and plan[pos].path:match("^(/matches/[^/]+)") == path do
    pos = pos + 1
  end
end

function done(summary, latency, requests)
  local m, r, f, i, w = 0, 0, 0, 0, 0
  for _, thread in ipairs(threads) do
    m = m + thread:get("moves")
    r = r + thread:get("rounds")
    f = f + thread:get("refused")
    i = i + thread:get("idle")
    w = w + thread:get("wraps")
    local text = thread:get("refusals")
    if text ~= "" then io.write("REFUSED ", text) end
  end
  io.write(string.format(
    "RESULT moves=%d rounds=%d refused=%d idle=%d wraps=%d duration_us=%d requests=%d " ..
    "errors_connect=%d errors_read=%d errors_write=%d errors_status=%d errors_timeout=%d " ..
    "p50_us=%d p90_us=%d p99_us=%d max_us=%d\n",
    m, r, f, i, w, summary.duration, summary.requests,
    summary.errors.connect, summary.errors.read, summary.errors.write,
    summary.errors.status, summary.errors.timeout,
    latency:percentile(50), latency:percentile(90), latency:percentile(99), latency.max))
end
