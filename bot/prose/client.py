"""The language model over HTTP, through the real `openai` SDK (any OpenAI-compatible
server: vLLM's own `vllm serve`, Ollama, a hosted API). Only this module imports `openai`,
and only when a model is configured (the SDK costs most of a second to import)."""

from __future__ import annotations

import contextlib
import json
import socket
import threading
import time
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from bot.prose.prompts import answer_schema, system_prompt

if TYPE_CHECKING:
    from collections.abc import Iterator

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
    """The model gave no usable answer; `down` when asking again now is pointless, `final`
    when this request would get the same answer again (a wrong model name, a bad request,
    an answer that is not JSON): never retried. `reason` names the kind of failure for the
    operator's metrics (`vllm_report_prose_failures_total{reason}`)."""

    def __init__(
        self, message: str, *, down: bool = False, final: bool = False, reason: str = "failed"
    ) -> None:
        super().__init__(message)
        self.down = down
        self.final = final
        self.reason = reason


class ModelClient:
    def __init__(self, config: LLMConfig) -> None:
        import openai

        self.config = config
        self._watch = _Deadlines()
        self._client: openai.OpenAI = openai.OpenAI(
            base_url=config.base_url,
            api_key=config.api_key or "not-needed",  # local servers often take none
            timeout=config.timeout,
            max_retries=0,  # retried here, within the report's time
            http_client=openai.DefaultHttpxClient(event_hooks={"response": [self._watch.arm]}),
        )
        self._schema = True  # ask for a JSON schema until the server refuses one

    def close(self) -> None:
        self._client.close()

    def ask(
        self, section: str, lang: str, facts: dict[str, Any], timeout: float, reason: bool = True
    ) -> Answer:
        """One answer, parsed; ProseError when there is none within `timeout`. The answer is
        asked for as a JSON schema where the server takes one (vLLM, llama.cpp), else as a
        JSON object."""
        import openai

        system, user = system_prompt(section, lang, reason), json.dumps(facts, ensure_ascii=False)
        schema = answer_schema(section, lang, reason)
        try:
            response = self._create(schema, system, user, timeout)
        except openai.APIStatusError as exc:
            # A server that takes no `json_schema` (llama.cpp's Python server answers 500)
            # is asked for a JSON object with the schema beside it, which it honours.
            if not (self._schema and _about_format(exc)):
                raise _failed(exc) from None
            self._schema = False
            try:
                response = self._create(schema, system, user, timeout)
            except openai.APIStatusError as again:
                raise _failed(again) from None
        content = _content(response, self.config.base_url)
        try:
            parsed = json.loads(_strip_fence(content))
        except json.JSONDecodeError:
            parsed = None
        if not isinstance(parsed, dict):
            raise ProseError("the answer was not the JSON asked for", final=True, reason="not_json")
        usage = response.usage
        sent = usage.prompt_tokens if usage is not None else estimate_tokens([system, user])
        answered = usage.completion_tokens if usage is not None else 0
        return Answer(parsed, sent, answered)

    def _create(self, schema: dict[str, Any], system: str, user: str, timeout: float) -> Any:
        import openai

        answer_format: Any = (
            {"type": "json_schema", "json_schema": {"name": "answer", "schema": schema}}
            if self._schema
            else {"type": "json_object", "schema": schema}
        )
        late = ProseError(f"no answer within {_seconds(timeout)} s", down=True, reason="timeout")
        try:
            # The timeout is the SDK's for each read (a server that says nothing is given up
            # on then); the deadline also ends an answer that trickles in past it.
            with self._watch.deadline(time.monotonic() + timeout) as watched:
                return self._client.with_options(timeout=timeout).chat.completions.create(
                    model=self.config.model,
                    messages=[
                        {"role": "system", "content": system},
                        {"role": "user", "content": user},
                    ],
                    temperature=0.2,
                    max_tokens=self.config.max_tokens,
                    response_format=answer_format,
                )
        except openai.APIStatusError:
            raise  # the caller tells a format the server refuses from a refused request
        except openai.APITimeoutError:
            raise late from None
        except openai.APIConnectionError:
            if watched.fired:
                raise late from None
            raise ProseError(
                f"cannot reach {self.config.base_url}", down=True, reason="unreachable"
            ) from None
        except json.JSONDecodeError:  # a 200 whose body is not JSON (a proxy's page)
            raise _not_the_api(self.config.base_url) from None
        except openai.OpenAIError as exc:
            raise ProseError(type(exc).__name__) from None


def _failed(error: Any) -> ProseError:
    """A refused request as a ProseError: a 4xx answer (a wrong model name, a bad request)
    would be the same again, so it is final; a 5xx or 429 may pass on a retry."""
    status = int(getattr(error, "status_code", 0))
    if status == 404:
        return ProseError("the server has no such model (404)", final=True, reason="no_model")
    if status in (401, 403):
        return ProseError(f"the server refused the key ({status})", final=True, reason="refused")
    if status == 429 or status >= 500:
        return ProseError(f"the server answered {status}", reason="server_error")
    return ProseError(f"the server answered {status}", final=True, reason="refused_request")


def _content(response: Any, base_url: str) -> str:
    """The assistant's text of a chat completion; ProseError (final) when the answer is not
    one (a page or a JSON document of another API, answered with 200)."""
    try:
        message = response.choices[0].message
    except (AttributeError, IndexError, KeyError, TypeError):
        raise _not_the_api(base_url) from None
    content = getattr(message, "content", None)
    return content if isinstance(content, str) else ""


def _not_the_api(base_url: str) -> ProseError:
    return ProseError(
        f"{base_url} did not answer with an OpenAI chat completion (is it the server's /v1 "
        "address?)",
        final=True,
        reason="not_the_api",
    )


def _seconds(value: float) -> str:
    """Whole seconds, as LLM_TIMEOUT is set; tenths below one (never "0 s")."""
    return f"{value:.0f}" if value >= 0.95 else f"{value:.1f}"


class _Watched:
    fired = False


class _Deadlines:
    """Each request's deadline, kept by hanging up: the SDK's timeout bounds each read, so a
    server that sends its headers and then trickles would be waited on past it. Once the
    headers are in, a timer shuts the connection's socket at the deadline (the blocked read
    ends, the SDK closes the connection, and a server that stops work when its client goes,
    as vLLM does, stops). One request per thread at a time; the writer asks one by one."""

    def __init__(self) -> None:
        self._local = threading.local()

    @contextlib.contextmanager
    def deadline(self, at: float) -> Iterator[_Watched]:
        watched = _Watched()
        self._local.at, self._local.watched, self._local.timer = at, watched, None
        try:
            yield watched
        finally:
            timer = self._local.timer
            if timer is not None:
                timer.cancel()
            self._local.at = self._local.watched = self._local.timer = None

    def arm(self, response: Any) -> None:
        """httpx's response hook: the headers are in, the body is still to be read."""
        at: float | None = getattr(self._local, "at", None)
        stream = response.extensions.get("network_stream")
        sock = stream.get_extra_info("socket") if stream is not None else None
        if at is None or not isinstance(sock, socket.socket):
            return
        watched: _Watched = self._local.watched

        def hang_up() -> None:
            watched.fired = True
            with contextlib.suppress(OSError):
                sock.shutdown(socket.SHUT_RDWR)

        timer = threading.Timer(max(0.0, at - time.monotonic()), hang_up)
        timer.daemon = True
        self._local.timer = timer
        timer.start()


def _about_format(error: Exception) -> bool:
    """A refusal about the answer format (a server without JSON schemas), not the request:
    its message or body names the format."""
    response = getattr(error, "response", None)
    body = getattr(response, "text", "") if response is not None else ""
    said = f"{error} {getattr(error, 'body', '')} {body}".lower()
    return "response_format" in said or "json_schema" in said or "schema" in said


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
    not_the_api = (
        f"{config.base_url} did not answer with an OpenAI chat completion: check LLM_BASE_URL "
        "(the server's /v1 address)"
    )
    try:
        response = client.chat.completions.create(
            model=config.model, messages=[{"role": "user", "content": "ok"}], max_tokens=1
        )
        _content(response, config.base_url)
    except (json.JSONDecodeError, ProseError):  # a 200 that is a page, or another API's JSON
        return not_the_api
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
