"""Fill resources/translations/margin_zh_CN.ts with the Simplified Chinese translations below.

Usage: python scripts/translate_zh_CN.py [TS]   (then scripts/update_translations.sh compiles the .qm)

TRANSLATIONS maps an English source text to its translation; CONTEXT_TRANSLATIONS maps (context, source) for a
source that needs a different translation in one context. A message whose source is in neither is left as it
is and listed on stderr (exit code 1), so new strings are easy to spot: add them here and run this again.
Rules: keep %1, %2, %n; accelerators the Chinese way (`&File` → `文件(&F)`); keep …, markup and technical names.
Library is 文库 (as in Zotero), paper 文献, tag 标签, rating 评分, note 笔记, triage 筛选.
"""

from __future__ import annotations

import sys
from pathlib import Path

from lxml import etree

ROOT = Path(__file__).resolve().parents[1]
TS = ROOT / "resources" / "translations" / "margin_zh_CN.ts"

TRANSLATIONS: dict[str, str] = {
    # after the merges of issues 17 and 21 (the conference map, Back, saved searches, copy citation, plurals)
    "in the rating box: rate, step the rating": "在评分框中：评分，逐级调整评分",
    "Keys": "按键",
    "Does": "作用",
    "&Copy citation (BibTeX)": "复制引用（BibTeX）(&C)",
    "Sa&ve search…": "保存搜索(&V)…",
    "&Back": "返回(&B)",
    "First author": "第一作者",
    "Similar to: %1": "相似于：%1",
    "%1 of %Ln paper(s) · read %2 of %3": "%1 / %Ln 篇文献 · 已读 %2 / %3",
    "counting… of %Ln paper(s) · read %2 of %3": "正在计数… / %Ln 篇文献 · 已读 %2 / %3",
    "← Back": "← 返回",
    "Back to the previous view (Alt+Left)": "返回上一个视图（Alt+Left）",
    "Conference map": "会议地图",
    "Colour the map by": "地图着色依据",
    "Map of the papers by text similarity": "按文本相似度排布的文献地图",
    "Click a point to open its paper; Shift+drag: lasso, Ctrl+drag: rectangle":
        "点击一个点打开其文献；Shift+拖动：套索，Ctrl+拖动：矩形",
    "Conference &map": "会议地图(&M)",
    "Export &map…": "导出地图(&M)…",
    "Drawing the map…": "正在绘制地图…",
    "The map could not be drawn: %1": "无法绘制地图：%1",
    "Colour by rating": "按评分着色",
    "Colour by read state": "按阅读状态着色",
    "Colour by tag: %1": "按标签着色：%1",
    "%1 of %2 papers lit": "已高亮 %1 / %2 篇文献",
    "No lit paper in the region": "该区域内没有高亮的文献",
    "Tag the %1 papers…": "为这 %1 篇文献添加标签…",
    "Open the %1 papers as the list": "将这 %1 篇文献作为列表打开",
    "Queue the unread ones for triage": "将其中未读的加入筛选队列",
    "Tag papers": "添加标签",
    "Tag for the %1 papers:": "这 %1 篇文献的标签：",
    "%1 papers from the map": "来自地图的 %1 篇文献",
    "%1 unread papers from the map to triage": "来自地图的 %1 篇待筛选未读文献",
    "Export map": "导出地图",
    "PNG image (*.png)": "PNG 图像 (*.png)",
    "Open View → Conference map first": "请先打开 视图 → 会议地图",
    "Could not write %1: %2": "无法写入 %1：%2",
    "Map written to %1": "地图已写入 %1",
    "Authors": "作者",
    "Saved searches": "已保存的搜索",
    "Delete saved search": "删除已保存的搜索",
    "Save search": "保存搜索",
    "A name for “%1”:": "为“%1”命名：",
    "Remove the tag “%1” from %Ln paper(s)?": "要从 %Ln 篇文献中移除标签“%1”吗？",
    "Copied the BibTeX entry of %Ln paper(s)": "已复制 %Ln 篇文献的 BibTeX 条目",
    "Exported %Ln paper(s) to %1": "已将 %Ln 篇文献导出到 %1",
    "Exporting %Ln paper(s)…": "正在导出 %Ln 篇文献…",
    # damaged library, rebuild (desktop/app.py)
    "The library was rebuilt": "文库已重建",
    "Margin can rebuild the library from what is still readable in it and from the newest backup, %1.":
        "Margin 可以根据文库中仍可读取的内容和最新的备份 %1 重建文库。",
    "There is no backup. Margin can rebuild the library from what is still readable in it.":
        "没有备份。Margin 可以根据文库中仍可读取的内容重建文库。",
    "The library database %1 is damaged (%2).": "文库数据库 %1 已损坏（%2）。",
    "The damaged file is kept in the library's backups folder. Papers that cannot be read come back by importing "
    "their files again.": "损坏的文件保存在文库的备份文件夹中。无法读取的文献可通过重新导入其文件恢复。",
    "The library is damaged": "文库已损坏",
    "Rebuild the library": "重建文库",
    "Quit": "退出",
    "Close Margin and open it again to rebuild the library.": "请关闭 Margin 并重新打开以重建文库。",
    # dialogs
    "Note history": "笔记历史",
    "Saved versions of the note": "笔记的已保存版本",
    "current": "当前",
    "(empty)": "（空）",
    "Restore this version": "恢复此版本",
    "Import finished": "导入完成",
    "New": "新增",
    "Updated": "已更新",
    "Skipped:": "已跳过：",
    "Export": "导出",
    "Export format": "导出格式",
    "Papers to export": "要导出的文献",
    "Annotated papers (rated, tagged, noted or titled)": "已标注的文献（评分、标签、笔记或标题）",
    "All papers": "全部文献",
    "Papers matching the current search": "符合当前搜索的文献",
    "Selected papers (%1)": "选中的文献（%1）",
    "Include abstracts (Markdown)": "包含摘要（Markdown）",
    "Format": "格式",
    "Papers": "文献",
    "Export into folder": "导出到文件夹",
    # triage progress (desktop/docks/progress.py)
    "all papers": "全部文献",
    "in “%1”": "“%1”中的",
    "liked": "喜欢的",
    "%1: screened %2 of %3 papers · %5 %4": "%1：已筛选 %2/%3 篇 · %5 %4 篇",
    "Liked papers still unseen: about %1 (%2–%3, 95% interval), from %4 random papers rated (%5 liked)":
        "尚未看到的喜欢文献：约 %1 篇（95% 区间 %2–%3），依据 %4 篇随机文献的评分（喜欢 %5 篇）",
    "%1 unseen papers were added after the check: not covered": "抽查后新增了 %1 篇未看过的文献：不在估计范围内",
    "The next %1 recommended are likely to hold at most %2": "接下来推荐的 %1 篇中很可能至多有 %2 篇喜欢的",
    # undo commands
    "Set rating": "设置评分",
    "Clear rating": "清除评分",
    "Mark read": "标为已读",
    "Mark unread": "标为未读",
    "Set title": "设置标题",
    "Add tag": "添加标签",
    "Remove tag": "移除标签",
    "Dismiss suggestion": "忽略推荐",
    "Delete %n paper(s)": "删除 %n 篇文献",
    # menus (desktop/window/actions.py, desktop/window/library_menu.py)
    "&File": "文件(&F)",
    "&Import…": "导入(&I)…",
    "&Export…": "导出(&E)…",
    "&Quit": "退出(&Q)",
    "&Edit": "编辑(&E)",
    "&Undo": "撤销(&U)",
    "&Redo": "重做(&R)",
    "Set &title…": "设置标题(&T)…",
    "Note &history…": "笔记历史(&H)…",
    "&Find": "搜索(&F)",
    "&Similar papers": "相似文献(&S)",
    "Re&commended papers": "推荐文献(&C)",
    "&Interests queue": "兴趣队列(&I)",
    "&Highlight words…": "高亮词(&H)…",
    "&View": "视图(&V)",
    "Zoom &in": "放大(&I)",
    "Zoom &out": "缩小(&O)",
    "&Reset zoom": "重置缩放(&R)",
    "Re&fresh list": "刷新列表(&F)",
    "&Unread papers only": "仅显示未读文献(&U)",
    "&Sort by": "排序方式(&S)",
    "Relevance": "相关性",
    "Label": "标题",
    "Rating": "评分",
    "Date added": "添加日期",
    "&Theme": "主题(&T)",
    "System": "跟随系统",
    "Light": "浅色",
    "Dark": "深色",
    "Rate and &advance": "评分后跳到下一篇(&A)",
    "&Mark read when shown": "显示时标为已读(&M)",
    "&Help": "帮助(&H)",
    "&Keyboard shortcuts": "键盘快捷键(&K)",
    "Keyboard shortcuts": "键盘快捷键",
    "&Search syntax": "搜索语法(&S)",
    "Search syntax": "搜索语法",
    "Open &backups folder": "打开备份文件夹(&B)",
    "&About Margin": "关于 Margin(&A)",
    "About Margin": "关于 Margin",
    "Margin: read, triage and annotate research-paper abstracts.\n\nLibrary: %1":
        "Margin：阅读、筛选和标注论文摘要。\n\n文库：%1",
    "Title (empty to use the file's or the derived label):": "标题（留空则使用文件中的标题或自动生成的标题）：",
    "Import paper lists": "导入文献列表",
    "An import is already running": "已有导入正在进行",
    "Importing %1…": "正在导入 %1…",
    "Import: %1": "导入：%1",
    "Import failed: %1": "导入失败：%1",
    "Import failed": "导入失败",
    "Nothing was imported.\n\n%1": "未导入任何内容。\n\n%1",
    "Exported %1 papers to %2": "已将 %1 篇文献导出到 %2",
    "Export failed: %1": "导出失败：%1",
    "Export failed": "导出失败",
    "Exporting %1 papers…": "正在导出 %1 篇文献…",
    "System language": "系统语言",
    "Cannot open the library": "无法打开文库",
    "&New library…": "新建文库(&N)…",
    "&Open library…": "打开文库(&O)…",
    "Open &recent": "最近打开(&R)",
    "&Delete papers": "删除文献(&D)",
    "&Language": "语言(&L)",
    "No other library yet": "暂无其他文库",
    "New library: choose an empty folder": "新建文库：选择一个空文件夹",
    "Open library: choose a library folder": "打开文库：选择文库文件夹",
    "New library": "新建文库",
    "%1 is not empty; choose an empty folder for a new library (or File → Open library… for an existing one).":
        "%1 不是空文件夹；请为新文库选择一个空文件夹（已有的文库请用 文件 → 打开文库…）。",
    "Open library": "打开文库",
    "%1 holds no Margin library (no library.db); File → New library… makes one.":
        "%1 中没有 Margin 文库（无 library.db）；可用 文件 → 新建文库… 创建。",
    "Deleted %n paper(s); Edit → Undo brings them back": "已删除 %n 篇文献；编辑 → 撤销 可恢复",
    # highlight words
    "Highlight words": "高亮词",
    "Include (green): one word or phrase a line; reinforc* matches any ending":
        "包含（绿色）：每行一个词或短语；reinforc* 匹配任意词尾",
    "Exclude (red)": "排除（红色）",
    # main window
    "No paper selected.": "未选择文献。",
    "Similar papers": "相似文献",
    "For the interest “%1”: ": "因兴趣“%1”推荐：",
    "Recommended for: ": "推荐理由：",
    "A tag must have 1 to 200 characters": "标签长度须为 1 到 200 个字符",
    "Search problem: %1": "搜索出错：%1",
    "%1 of %2 papers · read %3 of %2": "显示 %1/%2 篇 · 已读 %3/%2",
    "No papers match “%1”.": "没有与“%1”匹配的文献。",
    "The library has no papers yet: File → Import…": "文库中还没有文献：文件 → 导入…",
    "Not saved yet: %1": "尚未保存：%1",
    "Margin keeps these and saves them as soon as the library can take them:\n%1\n\n%2":
        "Margin 会保留这些更改，待文库可以写入时立即保存：\n%1\n\n%2",
    "Not saved yet, Margin will try again: %1": "尚未保存，Margin 将重试：%1",
    "All changes are saved": "所有更改均已保存",
    "An import is running": "导入正在进行",
    "An import is still running. Cancel it and close Margin? Nothing of the import will be saved (unless it has "
    "just saved its papers: then Margin closes when it has finished).":
        "导入仍在进行。要取消导入并关闭 Margin 吗？本次导入的内容都不会保存（除非它刚刚保存了文献："
        "那样 Margin 会在导入完成后关闭）。",
    "Cancel the import and close": "取消导入并关闭",
    "Keep Margin open": "保持 Margin 打开",
    "Saving changes that are still waiting…": "正在保存尚未保存的更改…",
    "These changes could not be saved (%1):\n%2": "以下更改无法保存（%1）：\n%2",
    "Changes not saved": "更改未保存",
    "Search papers": "搜索文献",
    'Search: words, "a phrase", tag:name, rating:>=4…  (/)': '搜索：词语、"短语"、tag:名称、rating:>=4…  (/)',
    "Library, venues, ratings and tags": "文库、会议/期刊、评分和标签",
    "Abstract": "摘要",
    "Tags": "标签",
    "Note": "笔记",
    # note editor
    "Note (Markdown)": "笔记（Markdown）",
    "Write a note in Markdown. It is saved as you type.": "用 Markdown 写笔记，输入时自动保存。",
    "Note preview": "笔记预览",
    "Preview": "预览",
    "This note was changed elsewhere. Both versions are kept in the note history.":
        "此笔记已在别处被修改。两个版本都保存在笔记历史中。",
    "Show theirs": "显示另一版本",
    "Keep mine": "保留我的版本",
    "Rendering the preview…": "正在渲染预览…",
    "The preview shows the first %1 characters of this note.": "预览仅显示此笔记的前 %1 个字符。",
    "This note has too many “[” to look for links in it: brackets are shown as written.":
        "此笔记中的“[”过多，无法查找链接：方括号按原样显示。",
    "This note is nested too deeply to render: it is shown as text.": "此笔记嵌套过深，无法渲染：以纯文本显示。",
    "This note was also changed outside this window; that version is in Edit → Note history":
        "此笔记也在本窗口之外被修改；该版本见 编辑 → 笔记历史",
    "The note could not be saved yet (%1); Margin keeps it and tries again":
        "笔记暂时无法保存（%1）；Margin 会保留并重试",
    "The note was saved": "笔记已保存",
    "Recovered %1 notes that could not be saved last time (the versions they replace are in Edit → Note history)":
        "已恢复上次未能保存的 %1 条笔记（被替换的版本见 编辑 → 笔记历史）",
    # the list
    "Paper": "文献",
    "Venue": "会议/期刊",
    "Year": "年份",
    "Read": "已读",
    "et al.": "等",
    "%n stars": "%n 星",
    "unrated": "未评分",
    "read": "已读",
    # triage progress dock
    "Triage progress": "筛选进度",
    "What counts as liked": "何为“喜欢”",
    "Liked: rated 4–5★": "喜欢：评分 4–5★",
    "Liked papers found against papers screened": "已找到的喜欢文献随已筛选文献的变化",
    "papers screened (read or rated)": "已筛选文献（已读或已评分）",
    "liked (4–5★)": "喜欢（4–5★）",
    "Liked papers in all, likely (95%): those found and those still unseen":
        "喜欢文献总数的可能范围（95%）：已找到的加上尚未看到的",
    "random order": "随机顺序",
    "found": "已找到",
    "liked in all, likely (95%)": "喜欢总数的可能范围（95%）",
    "Rate %1 random unseen papers": "为 %1 篇随机未看文献评分",
    "Draws random papers of this view that you have not seen; rating them tells how many papers you would like "
    "are still unseen": "从当前视图中随机抽取你尚未看过的文献；为它们评分可估计还有多少你会喜欢的文献尚未看到",
    "Show the check": "显示抽查",
    "Triage &progress": "筛选进度(&P)",
    "No figures for this view (its search failed).": "此视图没有数据（搜索失败）。",
    "Interest: %1": "兴趣：%1",
    "Progress could not be computed: %1": "无法计算进度：%1",
    "Show the check (%1 to rate)": "显示抽查（待评分 %1 篇）",
    # rating
    "Rating: click a star, or press 1–5 (0 clears)": "评分：点击星标，或按 1–5（0 清除）",
    "%n of 5 stars": "%n/5 星",
    "not rated": "未评分",
    # reader
    "(%1 more characters of this abstract are not shown)": "（此摘要还有 %1 个字符未显示）",
    "Submitted to %1": "投稿至 %1",
    "Decision: %1": "审稿结果：%1",
    "vol. %1": "第 %1 卷",
    "no. %1": "第 %1 期",
    "pp. %1": "第 %1 页",
    "ed. %1": "%1 编",
    "ISBN %1": "ISBN %1",
    "ISSN %1": "ISSN %1",
    "Journal article": "期刊文章",
    "Book": "图书",
    "Chapter": "图书章节",
    "PhD thesis": "博士论文",
    "Master's thesis": "硕士论文",
    "Thesis": "学位论文",
    "Report": "报告",
    "Unpublished": "未发表",
    "Web page": "网页",
    "and %1 more tags": "另有 %1 个标签",
    # search worker
    "Rebuilding the search index…": "正在重建搜索索引…",
    "Search index rebuilt": "搜索索引已重建",
    "Rebuilding the search index: %1 of %2 papers": "正在重建搜索索引：%1/%2 篇文献",
    "Preparing recommendations…": "正在准备推荐…",
    # sidebar
    "Library": "文库",
    "Unread": "未读",
    "Recommended": "推荐",
    "Unread papers like the ones you rated 4 or 5 stars": "与你评为 4 或 5 星的文献相似的未读文献",
    "Interests": "兴趣",
    "One queue across your interests: a accepts, x dismisses": "汇集所有兴趣的队列：按 a 接受，按 x 忽略",
    "Venues": "会议/期刊",
    "(no venue)": "（无会议/期刊）",
    "read %1 of %2": "已读 %1/%2",
    "Ratings": "评分",
    "Unrated": "未评分",
    "Papers I like (positives for recommendations)": "我喜欢的文献（推荐的正例）",
    "Suggest papers for this tag": "为此标签推荐文献",
    "Use as an interest": "设为兴趣",
    "Rename or merge tag…": "重命名或合并标签…",
    "Delete tag…": "删除标签…",
    "Rename tag": "重命名标签",
    "New name for “%1”:": "“%1”的新名称：",
    "Merge tags": "合并标签",
    "“%1” exists already. Merge “%2” into it?": "“%1”已存在。要将“%2”合并到其中吗？",
    "Delete tag": "删除标签",
    "Remove the tag “%1” from %2 papers?": "要从 %2 篇文献中移除标签“%1”吗？",
    # tag editor
    "Add a tag and press Enter": "输入标签后按 Enter",
    "New tag": "新标签",
    "Remove the tag “%1”": "移除标签“%1”",
    "Remove tag %1": "移除标签 %1",
    "and %1 more": "另有 %1 个",
    # Help → Keyboard shortcuts (desktop/window/dialogs.py SHORTCUTS) and the reader's highlight count
    "next paper": "下一篇",
    "previous paper": "上一篇",
    "rate": "评分",
    "clear the rating": "清除评分",
    "edit tags": "编辑标签",
    "edit the note": "编辑笔记",
    "mark read / unread": "标为已读 / 未读",
    "search": "搜索",
    "back to the list": "返回列表",
    "similar papers": "相似文献",
    "accept a suggestion into its tag or interest / dismiss it (kept)": "将推荐加入其标签或兴趣 / 忽略（保留该文献）",
    "set the title": "设置标题",
    "undo / redo": "撤销 / 重做",
    "zoom the reader": "缩放阅读区",
    "import files": "导入文件",
    "export notes": "导出笔记",
    "interests queue": "兴趣队列",
    "triage progress": "筛选进度",
    "highlight words": "高亮词",
}

# (context, source) → translation, for a source translated differently in one context ("" is the default context)
CONTEXT_TRANSLATIONS: dict[tuple[str, str], str] = {}


def translation_for(context: str, source: str) -> str | None:
    return CONTEXT_TRANSLATIONS.get((context, source), TRANSLATIONS.get(source))


def translate(ts: Path = TS) -> tuple[int, list[str]]:
    """Write the translations into `ts`; returns (messages translated, sources with no translation here)."""
    tree = etree.parse(str(ts))
    done, missing = 0, []
    for context in tree.getroot().iter("context"):
        name = context.findtext("name") or ""
        for message in context.iter("message"):
            source = message.findtext("source") or ""
            text = translation_for(name, source)
            element = message.find("translation")
            if text is None:
                if element is None or element.get("type") == "unfinished":
                    missing.append(f"{name}: {source!r}")
                continue
            if element is None:
                element = etree.SubElement(message, "translation")
            element.attrib.pop("type", None)
            if message.get("numerus") == "yes":  # Chinese has one plural form
                for child in list(element):
                    element.remove(child)
                element.text = "\n            "
                form = etree.SubElement(element, "numerusform")
                form.text = text
                form.tail = "\n        "
            else:
                for child in list(element):
                    element.remove(child)
                element.text = text
            done += 1
    tree.write(str(ts), encoding="utf-8", xml_declaration=True, doctype="<!DOCTYPE TS>")
    return done, missing


def main() -> int:
    ts = Path(sys.argv[1]) if len(sys.argv) > 1 else TS
    done, missing = translate(ts)
    print(f"{ts}: {done} messages translated, {len(missing)} without a translation in {Path(__file__).name}")
    for line in missing:
        print(f"  missing: {line}", file=sys.stderr)
    return 1 if missing else 0


if __name__ == "__main__":
    sys.exit(main())
