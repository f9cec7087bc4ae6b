"""The language model over HTTP, through the real `openai` SDK (any OpenAI-compatible
server: vLLM's own `vllm serve`, Ollama, a hosted API). Only this module imports `openai`,
and only when a model is configured (the SDK costs most of a second to import)."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from bot.prose.prompts import system_prompt

if TYPE_CHECKING:
    import openai


@dataclass(frozen=True)
class LLMConfig:
    base_url: str
    model: str
    api_key: str | None = None
    timeout: float = 60.0  # for all of one report's prose: the daily post waits no longer
    retries: int = 2
    max_tokens: int = 1200  # of one answer
    token_budget: int = 24000  # sent and answered, per report and language


@dataclass(frozen=True)
class Answer:
    value: dict[str, Any]
    sent_tokens: int
    answer_tokens: int


class ProseError(Exception):
    """The model gave no usable answer; `down` when asking again now is pointless."""

    def __init__(self, message: str, *, down: bool = False) -> None:
        super().__init__(message)
        self.down = down


class ModelClient:
    def __init__(self, config: LLMConfig) -> None:
        import openai

        self.config = config
        self._client: openai.OpenAI = openai.OpenAI(
            base_url=config.base_url,
            api_key=config.api_key or "not-needed",  # local servers often take none
            timeout=config.timeout,
            max_retries=0,  # retried here, within the report's time
        )

    def close(self) -> None:
        self._client.close()

    def ask(self, section: str, lang: str, facts: dict[str, Any], timeout: float) -> Answer:
        """One section's answer, parsed; ProseError when there is none within `timeout`."""
        import openai

        system, user = system_prompt(section, lang), json.dumps(facts, ensure_ascii=False)
        try:
            response = self._client.with_options(timeout=timeout).chat.completions.create(
                model=self.config.model,
                messages=[
                    {"role": "system", "content": system},
                    {"role": "user", "content": user},
                ],
                temperature=0.2,
                max_tokens=self.config.max_tokens,
                response_format={"type": "json_object"},
            )
        except openai.APITimeoutError:
            raise ProseError(f"no answer within {timeout:.0f} s", down=True) from None
        except openai.APIConnectionError:
            raise ProseError(f"cannot reach {self.config.base_url}", down=True) from None
        except openai.APIStatusError as exc:
            raise ProseError(f"the server answered {exc.status_code}") from None
        except openai.OpenAIError as exc:
            raise ProseError(type(exc).__name__) from None
        try:
            content = response.choices[0].message.content or ""
            parsed = json.loads(_strip_fence(content))
        except (IndexError, AttributeError, json.JSONDecodeError):
            raise ProseError("the answer was not the JSON asked for") from None
        if not isinstance(parsed, dict):
            raise ProseError("the answer was not the JSON asked for")
        usage = response.usage
        sent = usage.prompt_tokens if usage is not None else estimate_tokens([system, user])
        answered = usage.completion_tokens if usage is not None else 0
        return Answer(parsed, sent, answered)


def estimate_tokens(payload: Any) -> int:
    """A cautious guess before sending: about 3 characters a token in English, 1 in CJK."""
    text = json.dumps(payload, ensure_ascii=False)
    cjk = sum(1 for c in text if "\u4e00" <= c <= "\u9fff")
    return cjk + (len(text) - cjk) // 3 + 1


def check_model(config: LLMConfig) -> str | None:
    """`doctor`: None when the model answers a one-token request, else what is wrong and what
    to check, in one sentence (never the key)."""
    import openai

    client = openai.OpenAI(
        base_url=config.base_url,
        api_key=config.api_key or "not-needed",
        timeout=config.timeout,
        max_retries=0,
    )
    try:
        client.chat.completions.create(
            model=config.model, messages=[{"role": "user", "content": "ok"}], max_tokens=1
        )
    except openai.APITimeoutError:
        return f"{config.base_url} did not answer within {config.timeout:.0f} s: is it running?"
    except openai.APIConnectionError:
        return f"cannot reach {config.base_url}: check LLM_BASE_URL and that the server runs"
    except openai.AuthenticationError:
        return f"{config.base_url} refused the key (401): check LLM_API_KEY"
    except openai.NotFoundError:
        return f"{config.base_url} has no model '{config.model}' (404): check LLM_MODEL"
    except openai.APIStatusError as exc:
        return f"{config.base_url} answered {exc.status_code}: check LLM_BASE_URL and LLM_MODEL"
    except openai.OpenAIError as exc:
        return f"{config.base_url} failed ({type(exc).__name__}): check LLM_BASE_URL"
    finally:
        client.close()
    return None


def _strip_fence(content: str) -> str:
    text = content.strip()
    if text.startswith("```"):
        text = text.strip("`")
        text = text[text.find("{") :]
    return text
