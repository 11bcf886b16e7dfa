"""db.formats.spool (issue 28): a list of up to HOLD records stays in memory as it is (nothing pickled); from its
first record beyond, every record goes to the spool's file and at most BUFFER stay in memory; either way the
records come back in order, by index and by iteration."""

from __future__ import annotations

import pytest

from db.formats import spool as spool_module
from db.formats.spool import RecordSpool
from db.paper import PaperRecord


@pytest.mark.parametrize("count", [1, 30, 31, 100])
def test_a_list_is_held_up_to_hold_records_then_spooled_in_order(monkeypatch, count):
    monkeypatch.setattr(spool_module, "HOLD", 30)
    monkeypatch.setattr(spool_module, "BUFFER", 7)
    records = [PaperRecord(title=f"T{n}", abstract=f"A {n}", line=n) for n in range(count)]
    spool = RecordSpool(records[:5])
    spool += records[5:]
    held = count <= 30
    assert (spool._db is None) == held  # (the file is made only beyond HOLD)
    assert len(spool._buffer) == count if held else len(spool._buffer) < 7
    assert len(spool) == count
    got = list(spool)
    assert got == records and [spool[n] for n in range(count)] == records and spool[-1] == records[-1]
    assert all(a is b for a, b in zip(got, records, strict=True)) == held  # held: the same objects, not copies
    with pytest.raises(IndexError):
        spool[count]
    spool.close()
