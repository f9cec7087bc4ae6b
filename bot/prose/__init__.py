"""Optional prose from a language model (any OpenAI-compatible server, e.g. vLLM's own).

prompts (every prompt, both languages) → inputs (what the model is told, unit by unit) →
client (the `openai` SDK) → vetting (each sentence's citations and claims checked against
the facts) → writer (three sections, cache, time and token bounds). Only with LLM_BASE_URL;
without it the report is the deterministic one.
"""

from bot.prose.client import LLMConfig, ProseError, check_model
from bot.prose.writer import ProseCache, ProseWriter

__all__ = ["LLMConfig", "ProseCache", "ProseError", "ProseWriter", "check_model"]
