"""Discord: how the bot draws for it (`draw.py`: `DISCORD`, its limits and drawings) and how
it talks to it through its SDKs: autocomplete choices both ways in share (`choices.py`),
the gateway (`gateway.py`), the HTTP interactions endpoint (`http.py`) and posting
(`transport.py`). The SDK modules are imported only where Discord is configured; this
package's own module imports nothing, so the drawing and the SDK side sit in two layers."""
