"""The warnings' archive on SQLite and PostgreSQL: code at commits (each text kept once by its
git blob sha), and the ledger of warnings given, sent and graded."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from bot.features.radar.forecast import Forecast, NotEvaluated, Site, Warned
from bot.features.radar.store_corrections import WarningLedger
from bot.features.radar.store_pins import CodeArchive, Held, blob_sha
from bot.store import Store

AT = datetime(2026, 3, 25, 6, 0, tzinfo=UTC)
TPU = "vllm-project/tpu-inference"


def warned(stage: str = "open", line: int = 16) -> Warned:
    return Warned(
        TPU,
        41001,
        "[MoE] Fold SharedFusedMoE into FusedMoE",
        stage,
        "name-removed",
        "vllm.model_executor.layers.fused_moe.SharedFusedMoE",
        "vllm/model_executor/layers/fused_moe/__init__.py",
        32,
        sites=(Site("tpu_inference/layers/vllm/custom_ops/fused_moe.py", line, "import", "x"),),
    )


def test_a_text_is_kept_once_under_gits_own_name_for_it(store: Store) -> None:
    code = CodeArchive(store.transactions)
    assert blob_sha("hello\n") == "ce013625030ba8dba906f756967f9e9ca394464a"  # `git hash-object`
    shared = "import torch\n" * 100
    code.save_tree(
        TPU, "a" * 40, {"a.py": shared, "b.py": "x = 1\n"}, {"c.py": "not UTF-8 text"}, AT
    )
    code.save_tree(TPU, "b" * 40, {"a.py": shared}, {}, AT + timedelta(days=1))
    code.save_file("vllm-project/vllm", "c" * 40, "vllm/x.py", Held(shared), AT)
    first = code.tree(TPU, "a" * 40)
    assert first is not None and first.files == {"a.py": shared, "b.py": "x = 1\n"}
    assert first.unreadable == {"c.py": "not UTF-8 text"} and first.read_at == AT
    assert code.trees(TPU) == [("a" * 40, AT), ("b" * 40, AT + timedelta(days=1))]
    assert code.trees(TPU, since=AT + timedelta(hours=1)) == [("b" * 40, AT + timedelta(days=1))]
    with store.transactions.begin() as session:
        from sqlalchemy import func, select

        from bot.store.schema import CodeBlobRow

        assert session.scalar(select(func.count()).select_from(CodeBlobRow)) == 2
    assert code.tree(TPU, "d" * 40) is None


def test_a_file_at_a_commit_is_its_text_absent_or_why_it_could_not_be_read(store: Store) -> None:
    code = CodeArchive(store.transactions)
    repo, ref = "vllm-project/vllm", "e" * 40
    assert code.file(repo, ref, "vllm/a.py") is None  # never asked
    code.save_file(repo, ref, "vllm/a.py", Held("def f(): ...\n"), AT)
    code.save_file(repo, ref, "vllm/gone.py", Held(None), AT)
    code.save_file(repo, ref, "vllm/big.py", Held(None, "vllm/big.py is too large to read"), AT)
    assert code.file(repo, ref, "vllm/a.py") == Held("def f(): ...\n")
    assert code.file(repo, ref, "vllm/gone.py") == Held(None)
    assert code.file(repo, ref, "vllm/big.py") == Held(None, "vllm/big.py is too large to read")
    files = [("vllm/a.py", "modified", None), ("vllm/new.py", "renamed", "vllm/old.py")]
    code.save_changes(repo, 41001, "f" * 40, "0" * 40, files, AT)
    assert code.changes(repo, 41001, "f" * 40) == ("0" * 40, files)
    assert code.changes(repo, 41001, "1" * 40) is None


def test_the_ledger_keeps_the_furthest_stage_and_sends_each_stage_once(store: Store) -> None:
    ledger = WarningLedger.of_store(store)
    ledger.record([warned("approved")], {}, AT)
    ledger.record([warned("open", line=17)], {41001: AT}, AT + timedelta(days=1))
    [(again, merged_at, first_at)] = ledger.merged_ungraded(TPU)
    assert again.sites[0].line == 17 and (merged_at, first_at) == (AT, AT)
    assert ledger.warned_numbers(TPU) == {41001} and ledger.open_numbers(TPU) == set()
    key = "radar:tpu-inference"
    assert ledger.to_send(key, "2026-03-24", [warned()], AT) == [warned()]
    assert ledger.to_send(key, "2026-03-24", [warned()], AT) == [warned()]  # the same run again
    assert ledger.to_send("plugins", "2026-03-25", [warned()], AT) == [warned()]  # another key
    assert ledger.to_send(key, "2026-03-25", [warned()], AT) == []  # the next day: sent
    assert ledger.to_send(key, "2026-03-26", [warned("approved")], AT) == [warned("approved")]
    assert ledger.to_send(key, "2026-03-27", [warned("open")], AT) == []  # approval withdrawn
    ledger.grade(again.key, "confirmed", AT)
    ledger.grade(again.key, "not-confirmed", AT)  # the first grade stands
    ledger.missed(TPU, 40999, AT, AT)
    ledger.missed(TPU, 40999, AT, AT)
    assert ledger.grades(TPU) == {"confirmed": 1, "missed": 1}


def test_a_windows_forecast_is_kept_as_shown(store: Store) -> None:
    ledger = WarningLedger.of_store(store)
    assert ledger.latest_forecast() is None and ledger.began() is None
    made = Forecast(
        (TPU,),
        (warned(),),
        (NotEvaluated("GitHub kept failing", None, 41003),),
        1,
        made_at=AT,
        label="2026-03-24",
    )
    start, end = AT - timedelta(days=1, hours=2), AT - timedelta(hours=2)
    ledger.save_forecast(start, end, made, AT)
    assert ledger.forecast(start, end) == made
    assert ledger.latest_forecast() == (start, end, made)
    assert ledger.began() == AT
