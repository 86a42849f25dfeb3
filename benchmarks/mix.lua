-- A mix of what people open: entry pages, wizard steps and diagnoses of short error texts.
local paths = {
  "/kb/ddp-expect-autograd-hooks-assert/",
  "/e/DDP-001",
  "/kb/",
  "/wizard/?entry=ddp-expect-autograd-hooks-assert",
  "/wizard/?entry=ddp-expect-autograd-hooks-assert&static_graph=yes",
  "/wizard/?entry=ddp-expect-autograd-hooks-assert&static_graph=yes&no_sync_mismatch=yes",
  "/diagnose?q=RuntimeError%3A%20expect_autograd_hooks_%20INTERNAL%20ASSERT%20FAILED",
  "/go?q=RuntimeError%3A%20expect_autograd_hooks_%20INTERNAL%20ASSERT%20FAILED",
}
local i = 0
request = function()
  i = i % #paths + 1
  return wrk.format("GET", paths[i])
end
