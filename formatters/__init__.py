"""Pure renderers: `Report -> payload` for each output (JSON, Markdown, later chat)."""
