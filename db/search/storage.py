"""Reading the search index's segment files through a read-only memory map (db/search/postings.py reads
posting lists from them)."""

from __future__ import annotations

import mmap
import os

from whoosh.filedb.filestore import FileStorage
from whoosh.filedb.structfile import StructFile


class MappedStorage(FileStorage):
    """whoosh's FileStorage, reading files through a read-only memory map without copying them.

    whoosh maps a compound segment file and then wraps each file in it in a BytesIO, which copies the whole
    postings into memory (about 150 MB of resident memory at 20,000 papers, for the life of the searcher).
    Here each file is one map and its sub-files read from it: only the pages searched are resident, and they
    belong to the page cache (shared, reclaimable), not to the process's heap."""

    supports_mmap = False  # CompoundStorage: sub-files come from `subset` of the file opened below

    def open_file(self, name, **kwargs):
        with open(self._fpath(name), "rb") as file:
            if not os.fstat(file.fileno()).st_size:
                return super().open_file(name, **kwargs)
            mapped = mmap.mmap(file.fileno(), 0, access=mmap.ACCESS_READ)
        return _MappedFile(_MappedRange(mapped, 0, len(mapped)), name=name, **kwargs)


class _MappedFile(StructFile):
    def subset(self, offset, length, name=None):
        whole = self.file
        return _MappedFile(_MappedRange(whole.source, whole.start + offset, length), name=name or self._name)


class _MappedRange:
    """A read-only file over bytes start … start + length of a memory map. It has `peek`, so that pickle
    reads a block's tuple from a buffer rather than calling `read` for each item."""

    def __init__(self, source: mmap.mmap, start: int, length: int):
        self.source, self.start, self.end = source, start, start + length
        self.pos = start
        self.closed = False

    def read(self, size: int | None = -1) -> bytes:
        end = self.end if size is None or size < 0 else min(self.pos + size, self.end)
        data = self.source[self.pos : end]
        self.pos = max(end, self.pos)
        return data

    def peek(self, size: int = 0) -> bytes:
        return self.source[self.pos : min(self.pos + 16384, self.end)]  # may be less than asked, as a peek may

    def readinto(self, buffer) -> int:
        data = self.read(len(buffer))
        buffer[: len(data)] = data
        return len(data)

    def readline(self, size: int = -1) -> bytes:
        newline = self.source.find(b"\n", self.pos, self.end)
        end = self.end if newline < 0 else newline + 1
        return self.read(end - self.pos if size is None or size < 0 else min(size, end - self.pos))

    def seek(self, position: int, whence: int = 0) -> int:
        base = {0: self.start, 1: self.pos, 2: self.end}[whence]
        self.pos = min(max(base + position, self.start), self.end)
        return self.pos - self.start

    def tell(self) -> int:
        return self.pos - self.start

    def close(self) -> None:
        self.closed = True  # the map itself stays open for the other sub-files; it goes with the last one


def open_index(folder):
    """The whoosh index in `folder`, read through MappedStorage."""
    return MappedStorage(str(folder)).open_index()
