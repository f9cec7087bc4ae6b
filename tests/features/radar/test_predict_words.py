"""How a warning reads, in both languages: each kind of change said plainly, at most three
sites then "…", guarded sites counted apart, the PR's stage, the cap of the daily section;
the warnings' words the same keys and blanks in English and Chinese, and Chinese in
Chinese."""

from __future__ import annotations

import re
import string

from bot.features.radar.forecast import Forecast, NotEvaluated, Site, Warned
from bot.features.radar.phrases_warnings import WARNING_TEXT
from bot.features.radar.render_forecast import SHOWN, forecast_blocks, warning_line
from formatters.markdown import line

ASCEND = "vllm-project/vllm-ascend"
FILE = "vllm/v1/worker/gpu/utils.py"


def warned(kind: str, name: str, **more: object) -> Warned:
    sites = tuple(Site("vllm_ascend/worker/model_runner_v1.py", 400 + i) for i in range(16))
    fields: dict[str, object] = {"sites": sites, "stage": "approved"}
    fields.update(more)
    return Warned(ASCEND, 38100, "t", kind=kind, name=name, file=FILE, line=12, **fields)  # type: ignore[arg-type]


def said(warning: Warned, lang: str = "en") -> str:
    return line(warning_line(warning, lang))


def test_each_kind_of_change_is_said_plainly_in_both_languages() -> None:
    name = "vllm.v1.worker.gpu.utils.get_kv_cache_groups"
    assert said(warned("name-removed", name)) == (
        "⚠ [vllm#38100](https://github.com/vllm-project/vllm/pull/38100) (open, approved) "
        "removes `get_kv_cache_groups`, used at 16 places in vllm-ascend "
        "(`vllm_ascend/worker/model_runner_v1.py:400`, "
        "`vllm_ascend/worker/model_runner_v1.py:401`, "
        "`vllm_ascend/worker/model_runner_v1.py:402`, …)"
    )
    assert said(warned("name-removed", name), "zh").startswith(
        "⚠ [vllm#38100](https://github.com/vllm-project/vllm/pull/38100)（未合并，已获批准）删除了 "
        "`get_kv_cache_groups`，vllm-ascend 中有 16 处用到"
        "（`vllm_ascend/worker/model_runner_v1.py:400`、"
    )
    renamed = warned("name-renamed", name, now="vllm.v1.worker.gpu.utils.kv_cache_groups")
    assert "renames `get_kv_cache_groups` to `kv_cache_groups`" in said(renamed)
    assert "把 `get_kv_cache_groups` 改名为 `kv_cache_groups`" in said(renamed, "zh")
    moved = warned("name-moved", name, now="vllm.v1.kv_cache.get_kv_cache_groups")
    assert "moves `get_kv_cache_groups` to `vllm.v1.kv_cache.get_kv_cache_groups`" in said(moved)
    module = warned("module-moved", "vllm.v1.worker.gpu.utils", now="vllm.v1.worker.utils")
    assert "moves module `vllm.v1.worker.gpu.utils` to `vllm.v1.worker.utils`" in said(module)
    assert "把模块 `vllm.v1.worker.gpu.utils` 移到了 `vllm.v1.worker.utils`" in said(module, "zh")
    member = warned("member-removed", "vllm.v1.worker.gpu.utils.Runner.step")
    assert "removes `Runner.step`" in said(member) and "删除了 `Runner.step`" in said(member, "zh")
    base = warned("base-removed", "vllm.v1.worker.gpu.utils.Runner", now="vllm.x.CustomOp")
    assert "drops base class `CustomOp` from `Runner`" in said(base)
    assert "让 `Runner` 不再继承 `CustomOp`" in said(base, "zh")
    short = warned("signature", f"{name}", before="(a, b)", after="(a, *, b)", stage="merged")
    assert "(merged) changes the signature of `get_kv_cache_groups(a, b)` → " in said(short)
    assert "`get_kv_cache_groups(a, *, b)`" in said(short)
    assert "（已合并）把 `get_kv_cache_groups(a, b)` 的签名改成了" in said(short, "zh")


def test_one_site_a_few_sites_and_guarded_ones_apart() -> None:
    one = warned("name-removed", "vllm.v1.worker.gpu.utils.f", sites=(Site("a.py", 3),))
    assert said(one).endswith("removes `f`, used at 1 place in vllm-ascend (`a.py:3`)")
    three = tuple(Site("a.py", n) for n in (1, 2, 3))
    guarded = (Site("b.py", 9),) * 2
    some = warned("name-removed", "vllm.v1.worker.gpu.utils.f", sites=three, guarded=guarded)
    later = warned("member-removed", "vllm.v1.worker.gpu.utils.R.f", sites=three, possible=guarded)
    assert said(later).endswith("; 2 more may break later (an override vLLM may stop calling)")
    assert said(later, "zh").endswith("；另有 2 处日后可能出错（vLLM 可能不再调用的覆写方法）")
    assert said(some).endswith(
        "used at 3 places in vllm-ascend (`a.py:1`, `a.py:2`, `a.py:3`); 2 more behind a "
        "version check or an import guard"
    )
    assert said(some, "zh").endswith(
        "（`a.py:1`、`a.py:2`、`a.py:3`）；另有 2 处有版本检查或导入保护"
    )


def test_the_daily_section_shows_the_first_warnings_and_names_the_command_for_the_rest() -> None:
    many = tuple(warned("name-removed", f"vllm.v1.worker.gpu.utils.f{n}") for n in range(SHOWN + 2))
    forecast = Forecast(
        (ASCEND,), many, (NotEvaluated("x.py does not parse", None, 38200),), evaluated=7
    )
    (warnings, rest) = forecast_blocks(forecast, "en", "/vllm-radar predict")
    assert len(warnings.entries) == SHOWN
    assert warnings.rest is not None
    assert line(warnings.rest) == "…and 2 more warnings: /vllm-radar predict"
    assert line(rest.entries[0].head) == (
        "Not evaluated: 1 upstream PR (vllm#38200: a changed file does not parse)."
    )
    (_, zh) = forecast_blocks(forecast, "zh", "/vllm-radar predict")
    assert line(zh.entries[0].head) == "未评估：1 个上游 PR（vllm#38200：改动的文件无法解析）。"


def test_the_warnings_words_are_the_same_in_both_languages_and_chinese_in_chinese() -> None:
    en, zh = WARNING_TEXT["en"], WARNING_TEXT["zh"]
    assert set(en) == set(zh)
    blanks = string.Formatter()
    for key in en:
        assert {f for _, f, _, _ in blanks.parse(en[key]) if f} == {
            f for _, f, _, _ in blanks.parse(zh[key]) if f
        }, key
    # Every Chinese sentence with words in it is written in Chinese (a code span, a
    # command or a number may stay as it is).
    bare = re.compile(
        r"`[^`]*`|\{[^}]*\}|/vllm-radar predict|[vV](?:LLM|llm)[-#/A-Za-z0-9_]*"
        r"|GitHub|UTF-8|Python|[\d,.…]+"
    )
    for key, text in zh.items():
        rest = bare.sub("", text)
        if re.search(r"[A-Za-z]{3,}", rest):
            raise AssertionError(f"{key}: English in the Chinese edition: {text!r}")
        if re.search(r"[A-Za-z]", en[key]) and len(rest.strip(" ，、：；（）。")) > 1:
            assert re.search(r"[\u4e00-\u9fff]", rest), key
