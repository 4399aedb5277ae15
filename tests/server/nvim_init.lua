-- Headless Neovim as the language server's client (tests/server/test_neovim.py). Environment:
--   SMD_NVIM_CMD   the server's command line, a JSON list
--   SMD_NVIM_FILE  the file to open
--   SMD_NVIM_EDIT  JSON {line, from, to}: after the first diagnostics, replace the first `from` on 0-based `line`
--                  with `to` (as a user types), then read the diagnostics again
--   SMD_NVIM_ACTION_LINE  then ask for code actions on this 0-based line's diagnostics and apply the first quick fix
--   SMD_NVIM_OUT   where to write the JSON result: {nvim, api, before, after, text, actions, fixed, fixed_text,
--                  publishes} or {error}
--   SMD_NVIM_WAIT  milliseconds to wait for each set of diagnostics
-- The diagnostics are read back with vim.diagnostic.get (0-based lnum, byte col). `vim.lsp.start` came in
-- Neovim 0.8; bookworm's 0.7.2 has only vim.lsp.start_client + vim.lsp.buf_attach_client, used then.

local out = os.getenv("SMD_NVIM_OUT")
local wait_ms = tonumber(os.getenv("SMD_NVIM_WAIT") or "20000")

local function write(result)
  local handle = assert(io.open(out, "w"))
  handle:write(vim.fn.json_encode(result))
  handle:close()
end

local exited = nil
local publishes = 0
local last_publish = 0
local default_handler = vim.lsp.handlers["textDocument/publishDiagnostics"]
vim.lsp.handlers["textDocument/publishDiagnostics"] = function(err, result, ctx, config)
  publishes = publishes + 1
  last_publish = vim.loop.now()
  return default_handler(err, result, ctx, config)
end

local function snapshot(bufnr)
  local found = {}
  for _, d in ipairs(vim.diagnostic.get(bufnr)) do
    table.insert(found, {
      lnum = d.lnum, col = d.col, end_lnum = d.end_lnum, end_col = d.end_col,
      severity = d.severity, code = d.code, message = d.message, source = d.source,
      href = d.user_data and d.user_data.lsp and d.user_data.lsp.codeDescription
        and d.user_data.lsp.codeDescription.href or vim.NIL,
    })
  end
  table.sort(found, function(a, b)
    if a.lnum ~= b.lnum then return a.lnum < b.lnum end
    return a.col < b.col
  end)
  return found
end

-- Waits for a publish after `seen` publishes, then until none has come for 300 ms (a server may publish twice).
local function settle(seen)
  local ok = vim.wait(wait_ms, function() return publishes > seen or exited end, 20)
  if exited then error(exited) end
  if not ok then return false end
  vim.wait(wait_ms, function() return vim.loop.now() - last_publish >= 300 end, 20)
  return true
end

local function run()
  local version = vim.version()
  local cmd = vim.fn.json_decode(os.getenv("SMD_NVIM_CMD"))
  local path = os.getenv("SMD_NVIM_FILE")
  vim.cmd("filetype on")
  vim.cmd("edit " .. vim.fn.fnameescape(path))
  local bufnr = vim.api.nvim_get_current_buf()
  if vim.bo[bufnr].filetype == "" then vim.bo[bufnr].filetype = "python" end
  local config = {
    name = "sm-debug-config", cmd = cmd, root_dir = vim.fn.fnamemodify(path, ":h"),
    on_exit = function(code, signal) exited = "the server exited (status " .. code .. ", signal " .. signal .. ")" end,
  }
  local api
  if vim.lsp.start then
    api = "vim.lsp.start"
    vim.lsp.start(config)
  else
    api = "vim.lsp.start_client"
    local client_id = vim.lsp.start_client(config)
    if not client_id then error("vim.lsp.start_client returned nil") end
    vim.lsp.buf_attach_client(bufnr, client_id)
  end
  local result = {nvim = string.format("%d.%d.%d", version.major, version.minor, version.patch), api = api}
  if not settle(0) then error("no diagnostics within " .. wait_ms .. " ms") end
  result.before = snapshot(bufnr)
  local edit = vim.fn.json_decode(os.getenv("SMD_NVIM_EDIT"))
  local line = vim.api.nvim_buf_get_lines(bufnr, edit.line, edit.line + 1, true)[1]
  local start = string.find(line, edit.from, 1, true)
  if not start then error("'" .. edit.from .. "' is not on line " .. edit.line) end
  local seen = publishes
  vim.api.nvim_buf_set_text(bufnr, edit.line, start - 1, edit.line, start - 1 + #edit.from, {edit.to})
  if not settle(seen) then error("no diagnostics after the edit within " .. wait_ms .. " ms") end
  result.after = snapshot(bufnr)
  result.text = table.concat(vim.api.nvim_buf_get_lines(bufnr, 0, -1, true), "\n") .. "\n"
  -- a quick fix as Neovim's own vim.lsp.buf.code_action() asks for it: the line's diagnostics as context (0.7 sends
  -- their byte columns as LSP characters), the server's edit applied by Neovim in UTF-16
  local action_line = tonumber(os.getenv("SMD_NVIM_ACTION_LINE"))
  local context = vim.lsp.diagnostic.get_line_diagnostics(bufnr, action_line)
  if #context == 0 then error("no diagnostic on line " .. action_line .. " to ask a code action for") end
  local params = {textDocument = {uri = vim.uri_from_bufnr(bufnr)}, range = context[1].range,
                  context = {diagnostics = context}}
  local answers = vim.lsp.buf_request_sync(bufnr, "textDocument/codeAction", params, wait_ms) or {}
  local titles, chosen = {}, nil
  for _, answer in pairs(answers) do
    for _, action in ipairs(answer.result or {}) do
      table.insert(titles, {kind = action.kind or vim.NIL, title = action.title})
      if action.kind == "quickfix" and action.edit and chosen == nil then chosen = action end
    end
  end
  result.actions = titles
  if chosen then
    seen = publishes
    vim.lsp.util.apply_workspace_edit(chosen.edit, "utf-16")
    if not settle(seen) then error("no diagnostics after the code action within " .. wait_ms .. " ms") end
    result.fixed = snapshot(bufnr)
    result.fixed_text = table.concat(vim.api.nvim_buf_get_lines(bufnr, 0, -1, true), "\n") .. "\n"
  end
  result.publishes = publishes
  return result
end

local ok, result = pcall(run)
if ok then write(result) else write({error = tostring(result)}) end
vim.lsp.stop_client(vim.lsp.get_active_clients())
vim.wait(2000, function() return #vim.lsp.get_active_clients() == 0 end, 20)
vim.cmd("qall!")
