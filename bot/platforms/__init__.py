"""The chat platforms, each a package: how the bot draws for it (`<name>/draw.py`, a
`Platform` object holding the platform's limits) and how it talks to it through its SDKs
(the rest of `<name>/`). `registry.py` holds the `Platform` protocol and looks a platform up
by name. A new platform is a package and an entry in `registry.PLATFORMS`, and still its
settings (config/fields.py), its transport and start-up (bot/app/wiring.py, serve.py), its
doctor check and its renderer: docs/architecture.md lists them.

The packages import nothing, so the drawing (a low layer the core draws with) and the SDK
side (a high layer that reads commands and posts) sit in their own layers.
"""
