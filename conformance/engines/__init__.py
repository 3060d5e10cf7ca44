"""Engine adapters: the built-in ones by name (`registry`), the line protocol any program can speak
(`protocol`), and the adapter base class (`base`)."""

DEFAULT_TIMEOUT = 60.0  # seconds an engine may take for one reply: the hello, or the answers to one batch
