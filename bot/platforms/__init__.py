"""The chat platforms, each a package: how the bot draws for it (`<name>/draw.py`, a
`Platform` object holding the platform's limits) and how it talks to it through its SDKs
(the rest of `<name>/`). `registry.py` holds the `Platform` protocol and looks a platform up
by name; a new platform is one package and one entry in `registry.PLATFORMS`.

The packages import nothing, so the drawing (a low layer the core draws with) and the SDK
side (a high layer that reads commands and posts) sit in their own layers.
"""
