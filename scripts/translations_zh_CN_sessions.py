"""The Simplified Chinese of the window's strings added in sessions 9 and 10 (import details, venue decisions,
exports, notes whose paper is deleted elsewhere, ranked lists after an import, the embedding label), merged into
TRANSLATIONS by scripts/translations_zh_CN.py; the same rules as there. New strings go at the end."""

SESSIONS: dict[str, str] = {
    # session 9: the import details' headings carry their colon in the translation (was an ASCII one after Chinese)
    "New:": "新增：",
    "Updated:": "已更新：",
    "Kept their own tags, rating or note (the file's differed):": "保留了自己的标签、评分或笔记（与文件中的不同）：",
    "The project's figures could not be counted: %1": "无法统计项目的数据：%1",
    "Not undone: “%1” was changed elsewhere since (the command line, another window or a sync); that change is kept":
        "未撤销：“%1”此后已在别处被修改（命令行、另一个窗口或同步），保留那次修改",
    # session 9: a venue's usual decisions in the reader
    "Reject": "拒稿",
    "Accept": "录用",
    "Poster": "海报",
    "Spotlight": "亮点报告",
    "Oral": "口头报告",
    "Workshop": "研讨会",
    "Withdrawn": "已撤稿",
    # session 10: the window's export of the annotated papers (JSON also keeps papers only read, as the command)
    "Exporting the annotated papers…": "正在导出已标注的文献…",
    # session 10: a note whose paper was deleted elsewhere while the user wrote in it
    "This note's paper was deleted elsewhere (the command line, another window or a sync). What you wrote is kept "
    "here to copy; it is not saved anywhere.":
        "此笔记所属的文献已在别处被删除（命令行、另一个窗口或同步）。你写的内容保留在这里供复制，不会保存到任何地方。",
    # session 10: a ranked list keeps its rows after an import
    "%Ln paper(s) the import added match: at the end of the list (F5 ranks everything again)":
        "导入新增的 %Ln 篇文献符合条件：已放在列表末尾（按 F5 重新排序全部）",
    # session 10: the embedding job's label when papers came in while it runs
    "then the papers added or edited since": "之后处理此后新增或修改的文献",
    # session 11: a project member's criteria dock says who edits the exclusion reasons
    "Exclusion reasons (the project's owner, %1, edits them; Exclude… picks one)":
        "排除理由（由项目所有者 %1 编辑；用“排除…”选择一个）",
    # session 11: a plain reviewer's V key says who resolves, short enough for a 1024 px status bar
    "Resolve: this paper is in no shared project": "裁决：此文献不属于任何共享项目",
    "%1 (owner)": "%1（所有者）",
    "%1 more": "另外 %1 人",
    "Conflicts in “%1” are resolved by %2 only": "“%1”中的冲突仅由 %2 裁决",
    "Resolve: “%1” is blind until its owner %2 unblinds it": "裁决：“%1”处于盲审状态，需所有者 %2 先解除盲审",
    "Resolve: no conflict on this paper in “%1”": "裁决：此文献在“%1”中没有冲突",
}
