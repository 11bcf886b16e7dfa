<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name></name>
    <message>
        <location filename="../../desktop/app.py" line="+118"/>
        <source>The library was rebuilt</source>
        <translation>文库已重建</translation>
    </message>
    <message>
        <location line="+20"/>
        <source>Margin can rebuild the library from what is still readable in it and from the newest backup, %1.</source>
        <translation>Margin 可以根据文库中仍可读取的内容和最新的备份 %1 重建文库。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>There is no backup. Margin can rebuild the library from what is still readable in it.</source>
        <translation>没有备份。Margin 可以根据文库中仍可读取的内容重建文库。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The library database %1 is damaged (%2).</source>
        <translation>文库数据库 %1 已损坏（%2）。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The damaged file is kept in the library&apos;s backups folder. Papers that cannot be read come back by importing their files again.</source>
        <translation>损坏的文件保存在文库的备份文件夹中。无法读取的文献可通过重新导入其文件恢复。</translation>
    </message>
    <message>
        <location line="+2"/>
        <location line="+28"/>
        <source>The library is damaged</source>
        <translation>文库已损坏</translation>
    </message>
    <message>
        <location line="-27"/>
        <source>Rebuild the library</source>
        <translation>重建文库</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Quit</source>
        <translation>退出</translation>
    </message>
    <message>
        <location line="+27"/>
        <source>Close Margin and open it again to rebuild the library.</source>
        <translation>请关闭 Margin 并重新打开以重建文库。</translation>
    </message>
    <message>
        <location filename="../../desktop/window/shortcuts.py" line="+33"/>
        <source>next paper</source>
        <translation>下一篇</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>previous paper</source>
        <translation>上一篇</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>rate</source>
        <translation>评分</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>clear the rating</source>
        <translation>清除评分</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>include (screening decision)</source>
        <translation>纳入（筛选决定）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>exclude: pick a reason (1–9, 0 for none)</source>
        <translation>排除：选择理由（1–9，0 表示无理由）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>maybe (decide later)</source>
        <translation>待定（稍后决定）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>clear the screening decision</source>
        <translation>清除筛选决定</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>resolve a shared project&apos;s conflict (its owner or a resolver)</source>
        <translation>裁决共享项目中的冲突（所有者或裁决者）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>edit tags</source>
        <translation>编辑标签</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>edit the note</source>
        <translation>编辑笔记</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>mark read / unread</source>
        <translation>标为已读 / 未读</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>search (from the list, reader, sidebar or note preview)</source>
        <translation>检索（在列表、阅读区、侧栏或笔记预览中均可）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>similar papers</source>
        <translation>相似文献</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>accept a suggestion into its tag or interest</source>
        <translation>接受建议，加入其标签或兴趣</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>dismiss a suggestion (kept: the tag learns from it)</source>
        <translation>拒绝建议（会保留：标签从中学习）</translation>
    </message>
    <message>
        <location line="+78"/>
        <source>back to the list</source>
        <translation>返回列表</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>in the rating box: rate, step the rating</source>
        <translation>在评分框中：评分，逐级调整评分</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>Keys</source>
        <translation>按键</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Does</source>
        <translation>作用</translation>
    </message>
    <message>
        <location filename="../../desktop/reader/highlight_view.py" line="+30"/>
        <source>highlight words</source>
        <translation>高亮词</translation>
    </message>
    <message>
        <location filename="../../desktop/window/dialogs.py" line="+40"/>
        <source>Note history</source>
        <translation>笔记历史</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Saved versions of the note</source>
        <translation>笔记的已保存版本</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>current</source>
        <translation>当前</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>(empty)</source>
        <translation>（空）</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Restore this version</source>
        <translation>恢复此版本</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>Import finished</source>
        <translation>导入完成</translation>
    </message>
    <message numerus="yes">
        <location filename="../../desktop/window/import_summary.py" line="+21"/>
        <source>%Ln new</source>
        <translation>
            <numerusform>新增 %Ln 篇</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+0"/>
        <source>%Ln updated</source>
        <translation>
            <numerusform>更新 %Ln 篇</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+0"/>
        <source>%Ln unchanged</source>
        <translation>
            <numerusform>未变 %Ln 篇</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+2"/>
        <source>%Ln skipped</source>
        <translation>
            <numerusform>跳过 %Ln 条</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+2"/>
        <source>%Ln merged field by field</source>
        <translation>
            <numerusform>逐字段合并 %Ln 篇</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="-3"/>
        <source>%Ln duplicate(s) in the file</source>
        <translation>
            <numerusform>文件内重复 %Ln 条</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+5"/>
        <source>%Ln shared id(s) on different papers kept apart</source>
        <translation>
            <numerusform>%Ln 个标识符出现在不同文献上，已分开保留</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+2"/>
        <source>%Ln grouped with their other versions</source>
        <translation>
            <numerusform>%Ln 篇已与其其他版本归为一组</numerusform>
        </translation>
    </message>
    <message>
        <location line="+1"/>
        <location line="+14"/>
        <source>, </source>
        <translation>，</translation>
    </message>
    <message numerus="yes">
        <location line="-6"/>
        <source>%Ln rating(s)</source>
        <translation>
            <numerusform>评分 %Ln 个</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+0"/>
        <source>%Ln read mark(s)</source>
        <translation>
            <numerusform>已读标记 %Ln 个</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+1"/>
        <source>%Ln note(s)</source>
        <translation>
            <numerusform>笔记 %Ln 条</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+0"/>
        <source>%Ln title(s)</source>
        <translation>
            <numerusform>标题 %Ln 个</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+1"/>
        <source>%Ln screening decision(s)</source>
        <translation>
            <numerusform>筛选决定 %Ln 个</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+1"/>
        <source>tags on %Ln paper(s)</source>
        <translation>
            <numerusform>%Ln 篇文献的标签</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+1"/>
        <source>%Ln paper kept its own</source>
        <translation>
            <numerusform>%Ln 篇文献保留了自己的标注</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+1"/>
        <source>%Ln papers kept their own</source>
        <translation>
            <numerusform>%Ln 篇文献保留了自己的标注</numerusform>
        </translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1; annotations from the files: %2</source>
        <translation>%1；来自文件的标注：%2</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>New:</source>
        <translation>新增：</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Updated:</source>
        <translation>已更新：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Kept their own tags, rating or note (the file&apos;s differed):</source>
        <translation>保留了自己的标签、评分或笔记（与文件中的不同）：</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>… %1 more</source>
        <translation>… 另有 %1 篇</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Skipped:</source>
        <translation>已跳过：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>line %1: %2</source>
        <translation>第 %1 行：%2</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>merged: %1</source>
        <translation>已合并：%1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>kept apart: %1</source>
        <translation>分开保留：%1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>versions: %1</source>
        <translation>版本：%1</translation>
    </message>
    <message>
        <location filename="../../desktop/window/export_dialog.py" line="+21"/>
        <location line="+36"/>
        <source>Export</source>
        <translation>导出</translation>
    </message>
    <message>
        <location line="-34"/>
        <source>Export format</source>
        <translation>导出格式</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Papers to export</source>
        <translation>要导出的文献</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Annotated papers (rated, tagged, noted or titled)</source>
        <translation>已标注的文献（评分、标签、笔记或标题）</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>All papers</source>
        <translation>全部文献</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Papers matching the current search</source>
        <translation>符合当前搜索的文献</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Selected papers (%1)</source>
        <translation>选中的文献（%1）</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Include abstracts (Markdown)</source>
        <translation>包含摘要（Markdown）</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Format</source>
        <translation>格式</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Papers</source>
        <translation>文献</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>Export into folder</source>
        <translation>导出到文件夹</translation>
    </message>
    <message>
        <location filename="../../desktop/docks/progress.py" line="+312"/>
        <source>all papers</source>
        <translation>全部文献</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>in “%1”</source>
        <translation>“%1”中的</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>liked</source>
        <translation>喜欢的</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1: screened %2 of %3 papers · %5 %4</source>
        <translation>%1：已筛选 %2/%3 篇 · %5 %4 篇</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>drawn by rank</source>
        <translation>按排名抽取</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>drawn at random</source>
        <translation>随机抽取</translation>
    </message>
    <message numerus="yes">
        <location line="+1"/>
        <source>%Ln check paper(s) rated</source>
        <translation>
            <numerusform>%Ln 篇已评分的抽查文献</numerusform>
        </translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Liked papers still unseen: about %1 (%2–%3, 95% interval), from %4, %6 (%5 liked)</source>
        <translation>尚未看到的喜欢文献：约 %1 篇（%2–%3，95% 区间），来自 %4，%6（其中喜欢 %5 篇）</translation>
    </message>
    <message numerus="yes">
        <location line="+9"/>
        <source>About %Ln more check rating(s) would roughly halve it.</source>
        <translation>
            <numerusform>再为约 %Ln 篇抽查文献评分，区间宽度约可减半。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+2"/>
        <source>Not covered: %Ln unseen paper(s) added after the check</source>
        <translation>
            <numerusform>不在估计范围内：抽查后新增了 %Ln 篇未看过的文献</numerusform>
        </translation>
    </message>
    <message>
        <location line="+9"/>
        <source>No papers in this view.</source>
        <translation>此视图中没有文献。</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Every paper of this view has been screened.</source>
        <translation>此视图中的每篇文献都已筛选。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Rate the papers you like 4 or 5 stars; progress is counted from the first one.</source>
        <translation>请给喜欢的文献评 4 或 5 星；进度从第一篇喜欢的文献开始计算。</translation>
    </message>
    <message numerus="yes">
        <location line="+4"/>
        <source>Rate %Ln more paper(s) of the check to estimate what is left.</source>
        <translation>
            <numerusform>再为抽查中的 %Ln 篇文献评分，即可估计剩余数量。</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+1"/>
        <source>Draw a check of %Ln unseen paper(s) and rate them to estimate how many liked papers are left.</source>
        <translation>
            <numerusform>抽取 %Ln 篇未看过的文献作为抽查并评分，即可估计还剩多少喜欢的文献。</numerusform>
        </translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The knee method suggests you can stop: the recent papers held few you liked.</source>
        <translation>拐点法建议可以停止：最近看过的文献中喜欢的很少。</translation>
    </message>
    <message numerus="yes">
        <location line="+7"/>
        <source>find %Ln more liked paper(s)</source>
        <translation>
            <numerusform>再找到 %Ln 篇喜欢的文献</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+2"/>
        <source>rate about %Ln more check paper(s)</source>
        <translation>
            <numerusform>再为约 %Ln 篇抽查文献评分</numerusform>
        </translation>
    </message>
    <message>
        <location line="-35"/>
        <source>95% of checks drawn this way hold the true number inside their interval.</source>
        <translation>以此方式抽取的抽查中，95% 的区间包含真实数目。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The check found none: up to %1 could still be unseen (spread evenly, that many escape %2 draws more than 5% of the time, however drawn).</source>
        <translation>抽查未发现喜欢的文献：仍可能有至多 %1 篇未看（若均匀分布，无论如何抽取，%2 次抽取有超过 5% 的可能一篇也抽不到）。</translation>
    </message>
    <message>
        <location line="+28"/>
        <source>Stop now: with 95% confidence at least %1 of the liked papers are found.</source>
        <translation>现在可以停止：以 95% 置信度，已找到至少 %1 的喜欢文献。</translation>
    </message>
    <message>
        <location line="+6"/>
        <source> or </source>
        <translation> 或 </translation>
    </message>
    <message>
        <location line="+0"/>
        <source>screen on (the check cannot show it by itself)</source>
        <translation>继续筛选（仅靠抽查无法证明）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Go on: with 95% confidence at least %1 of the liked papers are found; to show %2, %3.</source>
        <translation>继续：以 95% 置信度已找到至少 %1 的喜欢文献；要证明 %2，请%3。</translation>
    </message>
    <message>
        <location filename="../../desktop/edits/undo.py" line="+109"/>
        <source>Set rating</source>
        <translation>设置评分</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Clear rating</source>
        <translation>清除评分</translation>
    </message>
    <message>
        <location filename="../../desktop/edits/operations.py" line="+112"/>
        <location filename="../../desktop/edits/undo.py" line="+8"/>
        <source>Mark read</source>
        <translation>标为已读</translation>
    </message>
    <message>
        <location line="+68"/>
        <source>Exclusion reasons</source>
        <translation>排除理由</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>Rename reason</source>
        <translation>重命名理由</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Inclusion criteria</source>
        <translation>纳入标准</translation>
    </message>
    <message>
        <location filename="../../desktop/edits/undo.py" line="+0"/>
        <source>Mark unread</source>
        <translation>标为未读</translation>
    </message>
    <message>
        <location line="+9"/>
        <location filename="../../desktop/window/actions.py" line="+170"/>
        <source>Set title</source>
        <translation>设置标题</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Screening decision</source>
        <translation>筛选决定</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Clear decision</source>
        <translation>清除决定</translation>
    </message>
    <message>
        <location line="+28"/>
        <source>Add tag</source>
        <translation>添加标签</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Remove tag</source>
        <translation>移除标签</translation>
    </message>
    <message>
        <location line="+37"/>
        <source>Dismiss suggestion</source>
        <translation>忽略推荐</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>Split from other versions</source>
        <translation>从其他版本中拆分</translation>
    </message>
    <message numerus="yes">
        <location line="+49"/>
        <source>Delete %n paper(s)</source>
        <translation>
            <numerusform>删除 %n 篇文献</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../desktop/window/actions.py" line="-141"/>
        <source>Paper lists (*.txt *.json *.jsonl *.csv *.bib *.bibtex *.biblatex *.ris *.xml *.atom);;All files (*)</source>
        <translation>文献列表 (*.txt *.json *.jsonl *.csv *.bib *.bibtex *.biblatex *.ris *.xml *.atom);;所有文件 (*)</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>&amp;File</source>
        <translation>文件(&amp;F)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Import…</source>
        <translation>导入(&amp;I)…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Get papers…</source>
        <translation>获取文献(&amp;G)…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Add paper…</source>
        <translation>添加文献(&amp;A)…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Import the files&apos; tags, ratings, read marks and notes</source>
        <translation>导入文件中的标签、评分、已读标记和笔记</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&amp;Export…</source>
        <translation>导出(&amp;E)…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Back up now</source>
        <translation>立即备份(&amp;B)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>S&amp;ync now</source>
        <translation>立即同步(&amp;Y)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Quit</source>
        <translation>退出(&amp;Q)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Edit</source>
        <translation>编辑(&amp;E)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Undo</source>
        <translation>撤销(&amp;U)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Redo</source>
        <translation>重做(&amp;R)</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Set &amp;title…</source>
        <translation>设置标题(&amp;T)…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Note &amp;history…</source>
        <translation>笔记历史(&amp;H)…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Split from other &amp;versions</source>
        <translation>从其他版本中拆分(&amp;V)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Copy citation (BibTeX)</source>
        <translation>复制引用（BibTeX）(&amp;C)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Find</source>
        <translation>搜索(&amp;F)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Sa&amp;ve search…</source>
        <translation>保存搜索(&amp;V)…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Similar papers</source>
        <translation>相似文献(&amp;S)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Re&amp;commended papers</source>
        <translation>推荐文献(&amp;C)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Interests queue</source>
        <translation>兴趣队列(&amp;I)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Highlight words…</source>
        <translation>高亮词(&amp;H)…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;View</source>
        <translation>视图(&amp;V)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Zoom &amp;in</source>
        <translation>放大(&amp;I)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Zoom &amp;out</source>
        <translation>缩小(&amp;O)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Reset zoom</source>
        <translation>重置缩放(&amp;R)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Re&amp;fresh list</source>
        <translation>刷新列表(&amp;F)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Back</source>
        <translation>返回(&amp;B)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Unread papers only</source>
        <translation>仅显示未读文献(&amp;U)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Sort by</source>
        <translation>排序方式(&amp;S)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Relevance</source>
        <translation>相关性</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Label</source>
        <translation>标题</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Rating</source>
        <translation>评分</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Date added</source>
        <translation>添加日期</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Year</source>
        <translation>年份</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Venue</source>
        <translation>会议/期刊</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>First author</source>
        <translation>第一作者</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>&amp;Theme</source>
        <translation>主题(&amp;T)</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>System</source>
        <translation>跟随系统</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Light</source>
        <translation>浅色</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Dark</source>
        <translation>深色</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Rate and &amp;advance</source>
        <translation>评分后跳到下一篇(&amp;A)</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Mark read when shown</source>
        <translation>显示时标为已读(&amp;M)</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>&amp;Help</source>
        <translation>帮助(&amp;H)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Keyboard shortcuts</source>
        <translation>键盘快捷键(&amp;K)</translation>
    </message>
    <message>
        <location line="+50"/>
        <source>This paper has no other versions.</source>
        <translation>这篇文献没有其他版本。</translation>
    </message>
    <message>
        <location line="+159"/>
        <source>Exporting the annotated papers…</source>
        <translation>正在导出已标注的文献…</translation>
    </message>
    <message numerus="yes">
        <location line="+1"/>
        <source>Exporting %Ln paper(s)…</source>
        <translation>
            <numerusform>正在导出 %Ln 篇文献…</numerusform>
        </translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Backing up…</source>
        <translation>正在备份…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Backed up to %1</source>
        <translation>已备份到 %1</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>is:recommended — unread papers like the ones you rated 4–5 stars (and unlike those rated 1–2)
similar:ID — papers like one paper (press s in the list, or click “Similar papers” in the reader)
similar-tag:&quot;NAME&quot; — untagged papers like those carrying a tag; a adds the tag, x dismisses
is:interests — one queue across your interests (tags: right-click → Use as an interest); a accepts the paper into its interest, x dismisses it (kept: that interest learns from it)
is:check — the papers of the random check of a view (View → Triage progress)
is:conflict — a shared project&apos;s papers whose decisions conflict, once its owner unblinded it</source>
        <translation>is:recommended — 与你评为 4–5 星的文献相似（且与评为 1–2 星的不相似）的未读文献
similar:ID — 与某一篇文献相似的文献（在列表中按 s，或在阅读区点击“相似文献”）
similar-tag:&quot;NAME&quot; — 与带有某标签的文献相似、但尚未加该标签的文献；按 a 加上标签，按 x 拒绝
is:interests — 汇总你所有兴趣的一个队列（标签：右键 → 用作兴趣）；按 a 将文献接受进其兴趣，按 x 拒绝（会保留：该兴趣从中学习）
is:check — 某个视图的随机抽查中的文献（视图 → 筛选进度）
is:conflict — 共享项目中决定相互冲突的文献（须项目所有者解除盲审之后）</translation>
    </message>
    <message>
        <location filename="../../desktop/window/shortcuts.py" line="-6"/>
        <location line="+5"/>
        <source>Keyboard shortcuts</source>
        <translation>键盘快捷键</translation>
    </message>
    <message>
        <location filename="../../desktop/window/actions.py" line="-234"/>
        <source>&amp;Search syntax</source>
        <translation>搜索语法(&amp;S)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Search syntax</source>
        <translation>搜索语法</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Open &amp;backups folder</source>
        <translation>打开备份文件夹(&amp;B)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;About Margin</source>
        <translation>关于 Margin(&amp;A)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>About Margin</source>
        <translation>关于 Margin</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Margin: read, triage and annotate research-paper abstracts.

Library: %1</source>
        <translation>Margin：阅读、筛选和标注论文摘要。

文库：%1</translation>
    </message>
    <message>
        <location line="+36"/>
        <source>Title (empty to use the file&apos;s or the derived label):</source>
        <translation>标题（留空则使用文件中的标题或自动生成的标题）：</translation>
    </message>
    <message numerus="yes">
        <location line="+22"/>
        <source>Copied the BibTeX entry of %Ln paper(s)</source>
        <translation>
            <numerusform>已复制 %Ln 篇文献的 BibTeX 条目</numerusform>
        </translation>
    </message>
    <message>
        <location line="+15"/>
        <source>Import paper lists</source>
        <translation>导入文献列表</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>An import is already running</source>
        <translation>已有导入正在进行</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Importing %1…</source>
        <translation>正在导入 %1…</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>Import: %1</source>
        <translation>导入：%1</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Import failed: %1</source>
        <translation>导入失败：%1</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Import failed</source>
        <translation>导入失败</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Nothing was imported.

%1</source>
        <translation>未导入任何内容。

%1</translation>
    </message>
    <message numerus="yes">
        <location line="+75"/>
        <source>Exported %Ln paper(s) to %1</source>
        <translation>
            <numerusform>已将 %Ln 篇文献导出到 %1</numerusform>
        </translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Export failed: %1</source>
        <translation>导出失败：%1</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Export failed</source>
        <translation>导出失败</translation>
    </message>
    <message>
        <location filename="../../desktop/window/library_menu.py" line="+31"/>
        <source>System language</source>
        <translation>系统语言</translation>
    </message>
    <message>
        <location line="+45"/>
        <source>Cannot open the library</source>
        <translation>无法打开文库</translation>
    </message>
    <message>
        <location line="+42"/>
        <source>&amp;New library…</source>
        <translation>新建文库(&amp;N)…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Open library…</source>
        <translation>打开文库(&amp;O)…</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Open &amp;recent</source>
        <translation>最近打开(&amp;R)</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>&amp;Delete papers</source>
        <translation>删除文献(&amp;D)</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>&amp;Language</source>
        <translation>语言(&amp;L)</translation>
    </message>
    <message>
        <location line="+26"/>
        <source>No other library yet</source>
        <translation>暂无其他文库</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>New library: choose an empty folder</source>
        <translation>新建文库：选择一个空文件夹</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Open library: choose a library folder</source>
        <translation>打开文库：选择文库文件夹</translation>
    </message>
    <message>
        <location line="+11"/>
        <location line="+7"/>
        <source>New library</source>
        <translation>新建文库</translation>
    </message>
    <message>
        <location line="-6"/>
        <source>%1 is not empty; choose an empty folder for a new library (or File → Open library… for an existing one).</source>
        <translation>%1 不是空文件夹；请为新文库选择一个空文件夹（已有的文库请用 文件 → 打开文库…）。</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>Open library</source>
        <translation>打开文库</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 holds no Margin library (no library.db); File → New library… makes one.</source>
        <translation>%1 中没有 Margin 文库（无 library.db）；可用 文件 → 新建文库… 创建。</translation>
    </message>
    <message numerus="yes">
        <location line="+16"/>
        <source>Deleted %n paper(s); Edit → Undo brings them back</source>
        <translation>
            <numerusform>已删除 %n 篇文献；编辑 → 撤销 可恢复</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../desktop/edits/operations.py" line="-39"/>
        <location filename="../../desktop/reader/highlight_view.py" line="+55"/>
        <source>Highlight words</source>
        <translation>高亮词</translation>
    </message>
    <message>
        <location filename="../../desktop/window/closing.py" line="+23"/>
        <source>An import is running</source>
        <translation>导入正在进行</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>An import is still running. Cancel it and close Margin? Nothing of the import will be saved (unless it has just saved its papers: then Margin closes when it has finished).</source>
        <translation>导入仍在进行。要取消导入并关闭 Margin 吗？本次导入的内容都不会保存（除非它刚刚保存了文献：那样 Margin 会在导入完成后关闭）。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Cancel the import and close</source>
        <translation>取消导入并关闭</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Keep Margin open</source>
        <translation>保持 Margin 打开</translation>
    </message>
    <message>
        <location line="+41"/>
        <source>Saving changes that are still waiting…</source>
        <translation>正在保存尚未保存的更改…</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>These changes could not be saved (%1):
%2</source>
        <translation>以下更改无法保存（%1）：
%2</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Changes not saved</source>
        <translation>更改未保存</translation>
    </message>
    <message>
        <location filename="../../desktop/docks/map.py" line="+68"/>
        <source>Conference map</source>
        <translation>会议地图</translation>
    </message>
    <message>
        <location filename="../../desktop/window/fetch_dialog.py" line="+56"/>
        <source>not a DOI, an arXiv id or an OpenReview id: %1</source>
        <translation>不是 DOI、arXiv 或 OpenReview 标识：%1</translation>
    </message>
    <message>
        <location line="+28"/>
        <source>cancelled; nothing was changed</source>
        <translation>已取消；未做任何更改</translation>
    </message>
    <message>
        <location line="+55"/>
        <source>Cancel</source>
        <translation>取消</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Fetching…</source>
        <translation>正在获取…</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Fetched %1 of %2 papers…</source>
        <translation>已获取 %1 / %2 篇文献…</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Fetched %1 papers…</source>
        <translation>已获取 %1 篇文献…</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Close</source>
        <translation>关闭</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Fetched: %1</source>
        <translation>获取完成：%1</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Cancelling… what was fetched is kept for the next try</source>
        <translation>正在取消…已获取的内容会保留供下次使用</translation>
    </message>
    <message>
        <location line="+26"/>
        <source>Get papers</source>
        <translation>获取文献</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>&amp;Get papers</source>
        <translation>获取文献(&amp;G)</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>OpenReview venue</source>
        <translation>OpenReview 会议</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>arXiv category or search</source>
        <translation>arXiv 分类或检索</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>DBLP venue and year</source>
        <translation>DBLP 会议与年份</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>PMLR volume</source>
        <translation>PMLR 卷</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>ACL Anthology volume</source>
        <translation>ACL Anthology 卷</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&amp;Source:</source>
        <translation>来源(&amp;S)：</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&amp;Id:</source>
        <translation>标识(&amp;I)：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Also &amp;rejected submissions</source>
        <translation>同时获取被拒稿件(&amp;R)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Also &amp;withdrawn submissions</source>
        <translation>同时获取撤回稿件(&amp;W)</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Options</source>
        <translation>选项</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Search &amp;query:</source>
        <translation>检索式(&amp;Q)：</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>&amp;From:</source>
        <translation>起始日期(&amp;F)：</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>&amp;To:</source>
        <translation>截止日期(&amp;T)：</translation>
    </message>
    <message>
        <location line="+35"/>
        <source>%1 is not a date (YYYY-MM-DD)</source>
        <translation>%1 不是日期（YYYY-MM-DD）</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>Give the id of what to get, e.g. %1</source>
        <translation>请填写要获取的标识，例如 %1</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Add paper</source>
        <translation>添加文献</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>&amp;Add paper</source>
        <translation>添加文献(&amp;A)</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>DOI, arXiv or OpenReview &amp;id:</source>
        <translation>DOI、arXiv 或 OpenReview 标识(&amp;I)：</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Or type it by hand</source>
        <translation>或手动填写</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>&amp;Title:</source>
        <translation>标题(&amp;T)：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>A&amp;uthors:</source>
        <translation>作者(&amp;U)：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Venue:</source>
        <translation>会议/期刊(&amp;V)：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Year:</source>
        <translation>年份(&amp;Y)：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>A&amp;bstract:</source>
        <translation>摘要(&amp;B)：</translation>
    </message>
    <message>
        <location filename="../../desktop/window/citation_menu.py" line="+20"/>
        <source>APA 7th edition</source>
        <translation>APA 第 7 版</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>IEEE</source>
        <translation>IEEE</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Chicago author-date</source>
        <translation>芝加哥 作者-日期</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Nature</source>
        <translation>Nature</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>Citation st&amp;yle</source>
        <translation>引文格式(&amp;Y)</translation>
    </message>
    <message>
        <location line="+19"/>
        <source>Copy &amp;citation (%1)</source>
        <translation>复制引文（%1）(&amp;C)</translation>
    </message>
    <message numerus="yes">
        <location line="+20"/>
        <source>Copied the %1 citation of %Ln paper(s)</source>
        <translation>
            <numerusform>已复制 %Ln 篇文献的 %1 引文</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../desktop/window/vault_menu.py" line="+29"/>
        <location line="+38"/>
        <source>Keep a Markdown &amp;vault updated…</source>
        <translation>保持 Markdown 笔记库同步(&amp;V)…</translation>
    </message>
    <message>
        <location line="-24"/>
        <source>Keep a Markdown vault updated in</source>
        <translation>保持 Markdown 笔记库同步到</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>Keep a Markdown &amp;vault updated (%1)</source>
        <translation>保持 Markdown 笔记库同步（%1）(&amp;V)</translation>
    </message>
    <message>
        <location line="+27"/>
        <source>The Markdown vault could not be written: %1</source>
        <translation>无法写入 Markdown 笔记库：%1</translation>
    </message>
    <message>
        <location filename="../../db/exporters/registry.py" line="+69"/>
        <source>Markdown (one file)</source>
        <translation>Markdown（单个文件）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Markdown folder (one file per paper)</source>
        <translation>Markdown 文件夹（每篇文献一个文件）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>CSV (exact text, for programs)</source>
        <translation>CSV（原样文本，供程序读取）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Margin JSON (backup; import restores it)</source>
        <translation>Margin JSON（备份；导入即可恢复）</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>RIS (EndNote, Mendeley)</source>
        <translation>RIS（EndNote、Mendeley）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Excel workbook (for spreadsheets)</source>
        <translation>Excel 工作簿（用于电子表格）</translation>
    </message>
    <message>
        <location filename="../../db/search/syntax_help.py" line="+6"/>
        <source>Search syntax

  graph neural          papers containing both words (title, abstract, authors, note, tags);
                        best matches first, a title match counts more; &quot;networks&quot; also finds &quot;network&quot;
  &quot;chain of thought&quot;    the exact phrase, small words included
  reinforc*             words starting with &quot;reinforc&quot; (* and ? are wildcards)
  title:transformer     only in the title; likewise abstract:  author:  note:  venue:
  tag:&quot;graph neural nets&quot;   papers carrying that whole tag (tag:graph* for tags starting with &quot;graph&quot;)
                        (a double quote inside the quotes is written twice)
  year:2019  year:2017..2019  year:&gt;=2018      years: one, a range, or a comparison (&gt; &gt;= &lt; &lt;=)
  rating:&gt;=4  rating:3  rating:none            stars 1..5; none = unrated
  read:yes  read:no                            read state
  decision:include  decision:exclude  decision:maybe  decision:none     screening decision
  reason:&quot;wrong population&quot;                    excluded for that reason (reason:none: excluded, no reason)
  decision:oral  decision:reject               the venue&apos;s decision or presentation (accept, oral,
                        spotlight, poster, workshop, reject, withdrawn)
  a OR b    a AND b    NOT a    -a    (a OR b) c   combine; AND is implied between words
                        (write AND, OR, NOT in capitals; lower-case &quot;or&quot; is an ordinary word)

A query of filters only (venue:, tag:, year:, rating:, read:, decision:, reason:) lists its papers in library order.

Case, accents and Unicode form do not matter (Kepes finds Képes); Chinese and Japanese text is found
without spaces. An empty query shows every paper in library order.
</source>
        <translation>检索语法

  graph neural          同时含有这两个词的文献（标题、摘要、作者、笔记、标签）；
                        最匹配的在前，标题中的匹配权重更高；“networks”也能找到“network”
  &quot;chain of thought&quot;    精确短语，包括其中的虚词
  reinforc*             以“reinforc”开头的词（* 和 ? 为通配符）
  title:transformer     只在标题中查找；同样可用 abstract:  author:  note:  venue:
  tag:&quot;graph neural nets&quot;   带有这个完整标签的文献（tag:graph* 匹配以“graph”开头的标签）
                        （引号内的双引号须写两次）
  year:2019  year:2017..2019  year:&gt;=2018      年份：某一年、一个区间或一个比较（&gt; &gt;= &lt; &lt;=）
  rating:&gt;=4  rating:3  rating:none            星级 1..5；none = 未评分
  read:yes  read:no                            阅读状态
  decision:include  decision:exclude  decision:maybe  decision:none     筛选决定
  reason:&quot;wrong population&quot;                    因该理由被排除（reason:none：被排除且未给理由）
  decision:oral  decision:reject               会议的录用结果或报告形式（accept、oral、
                        spotlight、poster、workshop、reject、withdrawn）
  a OR b    a AND b    NOT a    -a    (a OR b) c   组合条件；词与词之间默认为 AND
                        （AND、OR、NOT 须大写；小写的“or”是普通词）

只含筛选条件的检索式（venue:、tag:、year:、rating:、read:、decision:、reason:）按文献库顺序列出其文献。

不区分大小写、重音符号和 Unicode 形式（Kepes 可找到 Képes）；中文和日文无需空格即可检索。
检索式为空时按文献库顺序显示全部文献。
</translation>
    </message>
</context>
<context>
    <name>BackgroundEmbedding</name>
    <message>
        <location filename="../../desktop/window/embedding.py" line="+33"/>
        <source>Semantic vectors</source>
        <translation>语义向量</translation>
    </message>
    <message>
        <location line="+49"/>
        <source>Semantic similarity is off (%1): ranking uses words alone</source>
        <translation>语义相似度已关闭（%1）：排序仅按词语</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Semantic vectors from titles: %1 of %2</source>
        <translation>由标题计算语义向量：%1 / %2</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Semantic vectors: %1 of %2</source>
        <translation>语义向量：%1 / %2</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>then the papers added or edited since</source>
        <translation>之后处理此后新增或修改的文献</translation>
    </message>
</context>
<context>
    <name>CriteriaDock</name>
    <message>
        <location filename="../../desktop/docks/criteria.py" line="+52"/>
        <location line="+3"/>
        <source>Screening criteria</source>
        <translation>筛选标准</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Include</source>
        <translation>纳入</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Include this paper (key I)</source>
        <translation>纳入这篇文献（按键 I）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Exclude…</source>
        <translation>排除…</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Exclude this paper with a reason (key E)</source>
        <translation>排除这篇文献并给出理由（按键 E）</translation>
    </message>
    <message>
        <location line="+2"/>
        <location line="+113"/>
        <source>Maybe</source>
        <translation>待定</translation>
    </message>
    <message>
        <location line="-113"/>
        <source>Decide later (key M)</source>
        <translation>稍后决定（按键 M）</translation>
    </message>
    <message>
        <location line="+8"/>
        <location line="+3"/>
        <source>Inclusion criteria</source>
        <translation>纳入标准</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Write what a paper must have to be included…</source>
        <translation>写下文献须满足哪些条件才能纳入…</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Exclusion reasons (double-click to rename, drag to order)</source>
        <translation>排除理由（双击重命名，拖动排序）</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Exclusion reasons</source>
        <translation>排除理由</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>New exclusion reason</source>
        <translation>新的排除理由</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>New reason</source>
        <translation>新理由</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Add</source>
        <translation>添加</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Remove</source>
        <translation>移除</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>PRISMA counts (whole library)</source>
        <translation>PRISMA 计数（整个文库）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>PRISMA counts</source>
        <translation>PRISMA 计数</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Stage</source>
        <translation>阶段</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Papers</source>
        <translation>文献</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Save counts as CSV…</source>
        <translation>将计数保存为 CSV…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Stage, reason, count rows (as progress --prisma-csv)</source>
        <translation>阶段、理由、数量逐行（同 progress --prisma-csv）</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>Screening &amp;criteria</source>
        <translation>筛选标准(&amp;C)</translation>
    </message>
    <message>
        <location line="+32"/>
        <source>Records</source>
        <translation>记录</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Screened</source>
        <translation>已筛选</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Excluded</source>
        <translation>已排除</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>(no reason)</source>
        <translation>（无理由）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Included</source>
        <translation>已纳入</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Not screened yet</source>
        <translation>尚未筛选</translation>
    </message>
    <message>
        <location line="+6"/>
        <location line="+7"/>
        <source>Save PRISMA counts</source>
        <translation>保存 PRISMA 计数</translation>
    </message>
    <message>
        <location line="-6"/>
        <source>CSV files (*.csv)</source>
        <translation>CSV 文件 (*.csv)</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Saved %1</source>
        <translation>已保存 %1</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>No paper selected.</source>
        <translation>未选择文献。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>This paper: %1</source>
        <translation>本文献：%1</translation>
    </message>
</context>
<context>
    <name>HighlightDialog</name>
    <message>
        <location filename="../../desktop/reader/highlight_view.py" line="-40"/>
        <source>Highlight words</source>
        <translation>高亮词</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Include (green): one word or phrase a line; reinforc* matches any ending</source>
        <translation>包含（绿色）：每行一个词或短语；reinforc* 匹配任意词尾</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Exclude (red)</source>
        <translation>排除（红色）</translation>
    </message>
</context>
<context>
    <name>ListController</name>
    <message>
        <location filename="../../desktop/list/list_controller.py" line="+188"/>
        <source>Similar to: %1</source>
        <translation>相似于：%1</translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <location filename="../../desktop/reader/current_paper.py" line="+108"/>
        <source>No paper selected.</source>
        <translation>未选择文献。</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Similar papers</source>
        <translation>相似文献</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>For the interest “%1”: </source>
        <translation>因兴趣“%1”推荐：</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Recommended for: </source>
        <translation>推荐理由：</translation>
    </message>
    <message>
        <location filename="../../desktop/window/main_window.py" line="+99"/>
        <source>This library can&apos;t be changed: notes can be read, not written</source>
        <translation>此文库无法更改：笔记只能阅读，不能编写</translation>
    </message>
    <message>
        <location line="+210"/>
        <source>Set title</source>
        <translation>设置标题</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>A tag must have 1 to 200 characters</source>
        <translation>标签长度须为 1 到 200 个字符</translation>
    </message>
    <message>
        <location filename="../../desktop/window/layout.py" line="+98"/>
        <source>Search papers</source>
        <translation>搜索文献</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Search: words, &quot;a phrase&quot;, tag:name, rating:&gt;=4…  (/)</source>
        <translation>搜索：词语、&quot;短语&quot;、tag:名称、rating:&gt;=4…  (/)</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Papers</source>
        <translation>文献</translation>
    </message>
    <message>
        <location line="+34"/>
        <source>Library, venues, ratings and tags</source>
        <translation>文库、会议/期刊、评分和标签</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>← Back</source>
        <translation>← 返回</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Back to the previous view (Alt+Left)</source>
        <translation>返回上一个视图（Alt+Left）</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>Abstract</source>
        <translation>摘要</translation>
    </message>
    <message>
        <location line="+4"/>
        <location line="+13"/>
        <source>Rating</source>
        <translation>评分</translation>
    </message>
    <message>
        <location line="-9"/>
        <location line="+10"/>
        <source>Tags</source>
        <translation>标签</translation>
    </message>
    <message>
        <location line="-6"/>
        <source>Note</source>
        <translation>笔记</translation>
    </message>
</context>
<context>
    <name>MapDock</name>
    <message>
        <location filename="../../desktop/docks/map.py" line="+3"/>
        <source>Conference map</source>
        <translation>会议地图</translation>
    </message>
    <message>
        <location line="+19"/>
        <source>Colour the map by</source>
        <translation>地图着色依据</translation>
    </message>
    <message>
        <location filename="../../desktop/docks/map_plot.py" line="+38"/>
        <source>Map of the papers by text similarity</source>
        <translation>按文本相似度排布的文献地图</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Click a point to open its paper; Shift+drag: lasso, Ctrl+drag: rectangle</source>
        <translation>点击一个点打开其文献；Shift+拖动：套索，Ctrl+拖动：矩形</translation>
    </message>
    <message>
        <location line="+19"/>
        <source>Conference &amp;map</source>
        <translation>会议地图(&amp;M)</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Export &amp;map…</source>
        <translation>导出地图(&amp;M)…</translation>
    </message>
    <message>
        <location filename="../../desktop/docks/map.py" line="+13"/>
        <source>Computing the map</source>
        <translation>正在计算地图</translation>
    </message>
    <message>
        <location line="+45"/>
        <source>Drawing the map…</source>
        <translation>正在绘制地图…</translation>
    </message>
    <message>
        <location line="+17"/>
        <source>Computing the map of the papers…</source>
        <translation>正在计算文献地图…</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>The map could not be drawn: %1</source>
        <translation>无法绘制地图：%1</translation>
    </message>
    <message>
        <location line="+41"/>
        <source>Colour by rating</source>
        <translation>按评分着色</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Colour by read state</source>
        <translation>按阅读状态着色</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Colour by tag: %1</source>
        <translation>按标签着色：%1</translation>
    </message>
    <message>
        <location line="+30"/>
        <source>%1 of %2 papers lit</source>
        <translation>已高亮 %1 / %2 篇文献</translation>
    </message>
    <message>
        <location line="+90"/>
        <source>No lit paper in the region</source>
        <translation>该区域内没有高亮的文献</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Tag the %1 papers…</source>
        <translation>为这 %1 篇文献添加标签…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Open the %1 papers as the list</source>
        <translation>将这 %1 篇文献作为列表打开</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Queue the unread ones for triage</source>
        <translation>将其中未读的加入筛选队列</translation>
    </message>
    <message>
        <location line="+6"/>
        <location filename="../../desktop/edits/undo.py" line="-34"/>
        <source>Tag papers</source>
        <translation>添加标签</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Tag for the %1 papers:</source>
        <translation>这 %1 篇文献的标签：</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>%1 papers from the map</source>
        <translation>来自地图的 %1 篇文献</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>%1 unread papers from the map to triage</source>
        <translation>来自地图的 %1 篇待筛选未读文献</translation>
    </message>
    <message>
        <location filename="../../desktop/docks/map_plot.py" line="+9"/>
        <source>Export map</source>
        <translation>导出地图</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>PNG image (*.png)</source>
        <translation>PNG 图像 (*.png)</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Open View → Conference map first</source>
        <translation>请先打开 视图 → 会议地图</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Could not write %1: %2</source>
        <translation>无法写入 %1：%2</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Map written to %1</source>
        <translation>地图已写入 %1</translation>
    </message>
    <message>
        <location filename="../../desktop/docks/map_legend.py" line="+21"/>
        <source>read</source>
        <translation>已读</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>unread</source>
        <translation>未读</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>tagged %1</source>
        <translation>带标签 %1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>not tagged</source>
        <translation>无此标签</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>unrated</source>
        <translation>未评分</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>not in the list</source>
        <translation>不在列表中</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Colour legend</source>
        <translation>颜色图例</translation>
    </message>
</context>
<context>
    <name>NoteEditor</name>
    <message>
        <location filename="../../desktop/reader/note_editor.py" line="+52"/>
        <source>Note (Markdown)</source>
        <translation>笔记（Markdown）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Write a note in Markdown. It is saved as you type.</source>
        <translation>用 Markdown 写笔记，输入时自动保存。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Note preview</source>
        <translation>笔记预览</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Note</source>
        <translation>笔记</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Preview</source>
        <translation>预览</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>This note was changed elsewhere. Both versions are kept in the note history.</source>
        <translation>此笔记已在别处被修改。两个版本都保存在笔记历史中。</translation>
    </message>
    <message>
        <location line="-6"/>
        <source>Show theirs</source>
        <translation>显示另一版本</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Keep mine</source>
        <translation>保留我的版本</translation>
    </message>
    <message>
        <location line="+13"/>
        <source>This note&apos;s paper was deleted elsewhere (the command line, another window or a sync). What you wrote is kept here to copy; it is not saved anywhere.</source>
        <translation>此笔记所属的文献已在别处被删除（命令行、另一个窗口或同步）。你写的内容保留在这里供复制，不会保存到任何地方。</translation>
    </message>
    <message>
        <location line="-4"/>
        <source>Close</source>
        <translation>关闭</translation>
    </message>
    <message>
        <location line="+133"/>
        <source>Rendering the preview…</source>
        <translation>正在渲染预览…</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>The preview shows the first %1 characters of this note.</source>
        <translation>预览仅显示此笔记的前 %1 个字符。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>This note has too many “[” to look for links in it: brackets are shown as written.</source>
        <translation>此笔记中的“[”过多，无法查找链接：方括号按原样显示。</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>This note is nested too deeply to render: it is shown as text.</source>
        <translation>此笔记嵌套过深，无法渲染：以纯文本显示。</translation>
    </message>
</context>
<context>
    <name>NoteSession</name>
    <message>
        <location filename="../../desktop/reader/note_session.py" line="+88"/>
        <source>This note was also changed outside this window; that version is in Edit → Note history</source>
        <translation>此笔记也在本窗口之外被修改；该版本见 编辑 → 笔记历史</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>The note could not be saved yet (%1); Margin keeps it and tries again</source>
        <translation>笔记暂时无法保存（%1）；Margin 会保留并重试</translation>
    </message>
    <message>
        <location line="+75"/>
        <source>The note was saved</source>
        <translation>笔记已保存</translation>
    </message>
    <message>
        <location line="+40"/>
        <source>Recovered %1 notes that could not be saved last time (the versions they replace are in Edit → Note history)</source>
        <translation>已恢复上次未能保存的 %1 条笔记（被替换的版本见 编辑 → 笔记历史）</translation>
    </message>
</context>
<context>
    <name>PaperTableModel</name>
    <message>
        <location filename="../../desktop/list/paper_model.py" line="+89"/>
        <source>Paper</source>
        <translation>文献</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Rating</source>
        <translation>评分</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Tags</source>
        <translation>标签</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Venue</source>
        <translation>会议/期刊</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Year</source>
        <translation>年份</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Read</source>
        <translation>已读</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Authors</source>
        <translation>作者</translation>
    </message>
    <message numerus="yes">
        <location line="+176"/>
        <source>%n versions</source>
        <translation>
            <numerusform>%n 个版本</numerusform>
        </translation>
    </message>
    <message>
        <location line="+6"/>
        <source>excluded: %1</source>
        <translation>已排除：%1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>excluded</source>
        <translation>已排除</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>included</source>
        <translation>已纳入</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>maybe</source>
        <translation>待定</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>et al.</source>
        <translation>等</translation>
    </message>
    <message numerus="yes">
        <location line="+52"/>
        <source>%n stars</source>
        <translation>
            <numerusform>%n 星</numerusform>
        </translation>
    </message>
    <message>
        <location line="+0"/>
        <source>unrated</source>
        <translation>未评分</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>read</source>
        <translation>已读</translation>
    </message>
</context>
<context>
    <name>ProgressDock</name>
    <message>
        <location filename="../../desktop/docks/progress.py" line="-281"/>
        <location line="+3"/>
        <source>Triage progress</source>
        <translation>筛选进度</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>What counts as liked</source>
        <translation>何为“喜欢”</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Liked: rated 4–5★</source>
        <translation>喜欢：评分 4–5★</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Liked papers found against papers screened</source>
        <translation>已找到的喜欢文献随已筛选文献的变化</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>papers screened (read or rated)</source>
        <translation>已筛选文献（已读或已评分）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>liked (4–5★)</source>
        <translation>喜欢（4–5★）</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Liked papers in all, likely (95%): those found and those still unseen</source>
        <translation>喜欢文献总数的可能范围（95%）：已找到的加上尚未看到的</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>random order</source>
        <translation>随机顺序</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>found</source>
        <translation>已找到</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>liked in all, likely (95%)</source>
        <translation>喜欢总数的可能范围（95%）</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Stop when, with 95% confidence, found at least</source>
        <translation>停止条件：以 95% 置信度已找到至少</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Share of the liked papers to find</source>
        <translation>要找到的喜欢文献比例</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>How the check is drawn</source>
        <translation>抽查的抽取方式</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>at random</source>
        <translation>随机</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>by rank</source>
        <translation>按排名</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>At random: an exact interval. By rank: the top fifth of the recommended order and the rest, each at random; measured on ICLR 2018 it is no narrower than at random</source>
        <translation>随机：精确区间。按排名：推荐顺序的前五分之一与其余部分各自随机抽取；在 ICLR 2018 上实测并不比随机更窄</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Rate %1 unseen papers</source>
        <translation>为 %1 篇未看文献评分</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Draws papers of this view that you have not seen; rating them tells how many papers you would like are still unseen</source>
        <translation>从此视图中抽取你尚未看过的文献；为它们评分可估计还有多少你会喜欢的文献未看</translation>
    </message>
    <message>
        <location line="+3"/>
        <location line="+139"/>
        <source>Show the check</source>
        <translation>显示抽查</translation>
    </message>
    <message>
        <location line="-122"/>
        <source>Triage &amp;progress</source>
        <translation>筛选进度(&amp;P)</translation>
    </message>
    <message>
        <location line="+20"/>
        <source>No figures for this view (its search failed).</source>
        <translation>此视图没有数据（搜索失败）。</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>Interest: %1</source>
        <translation>兴趣：%1</translation>
    </message>
    <message>
        <location line="+52"/>
        <source>Progress could not be computed: %1</source>
        <translation>无法计算进度：%1</translation>
    </message>
    <message>
        <location line="+22"/>
        <source>up to %1</source>
        <translation>至多 %1</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>Show the check (%1 to rate)</source>
        <translation>显示抽查（待评分 %1 篇）</translation>
    </message>
</context>
<context>
    <name>ProjectCounts</name>
    <message>
        <location filename="../../desktop/docks/project_counts.py" line="+26"/>
        <source>PRISMA counts per member and for the project</source>
        <translation>每位成员及项目的 PRISMA 计数</translation>
    </message>
    <message>
        <location line="+29"/>
        <source>Project</source>
        <translation>项目</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>The project&apos;s decisions after resolution</source>
        <translation>裁决后的项目决定</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Screened</source>
        <translation>已筛选</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Papers decided</source>
        <translation>已作决定的文献</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Excluded</source>
        <translation>已排除</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Excluded, by reason beneath</source>
        <translation>已排除，下方按理由列出</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Maybe</source>
        <translation>待定</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>On the maybe list</source>
        <translation>在待定列表中</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Included</source>
        <translation>已纳入</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Awaiting</source>
        <translation>待决</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>A member: papers without their decision. The project: papers awaiting a second decision or a resolution</source>
        <translation>成员：尚未作决定的文献。项目：等待第二位成员决定或裁决的文献</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>(no reason)</source>
        <translation>（无理由）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>(reasons differ)</source>
        <translation>（理由不一）</translation>
    </message>
</context>
<context>
    <name>ProjectPanel</name>
    <message>
        <location filename="../../desktop/docks/project_panel.py" line="+48"/>
        <source>List the papers whose decisions conflict (%1)</source>
        <translation>列出决定相冲突的文献（%1）</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Resolve…</source>
        <translation>裁决…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Decide this conflicting paper for the project (key V); the reviewers&apos; decisions stay</source>
        <translation>为项目裁决这篇有冲突的文献（V 键）；审阅者的决定保持不变</translation>
    </message>
    <message>
        <location line="+56"/>
        <source>The project&apos;s figures could not be counted: %1</source>
        <translation>无法统计项目的数据：%1</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>Project “%1” (owner %2) is blind: no member reads another&apos;s decisions until the owner unblinds it.</source>
        <translation>项目“%1”（所有者 %2）为盲审：在所有者解除盲审之前，成员看不到彼此的决定。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Project “%1” (owner %2), unblinded: every member reads every member&apos;s decisions.</source>
        <translation>项目“%1”（所有者 %2）已解除盲审：每位成员都能看到所有成员的决定。</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Blind: the counts are your own; the others&apos; and the project&apos;s show once the owner unblinds.</source>
        <translation>盲审中：这里只有你自己的计数；其他成员和项目的计数在所有者解除盲审后显示。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Show conflicts (%1)</source>
        <translation>显示冲突（%1）</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Exclusion reasons (double-click to rename, drag to order)</source>
        <translation>排除理由（双击重命名，拖动排序）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Exclusion reasons (the project&apos;s owner, %1, edits them; Exclude… picks one)</source>
        <translation>排除理由（由项目所有者 %1 编辑；用“排除…”选择一个）</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The project&apos;s criteria: its owner edits them</source>
        <translation>项目的纳入标准：由项目所有者编辑</translation>
    </message>
    <message>
        <location line="+32"/>
        <source>resolved by %1: %2</source>
        <translation>由 %1 裁决：%2</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Decisions on this paper: %1</source>
        <translation>各成员对此文献的决定：%1</translation>
    </message>
    <message numerus="yes">
        <location line="+8"/>
        <source>%1 &amp; %2: %Ln paper(s), %3% agree, Cohen&apos;s κ %4</source>
        <translation>
            <numerusform>%1 与 %2：%Ln 篇文献，一致率 %3%，Cohen κ %4</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+6"/>
        <source>Fleiss&apos; κ over %Ln paper(s) all decided: %1</source>
        <translation>
            <numerusform>全员已决定的 %Ln 篇文献的 Fleiss κ：%1</numerusform>
        </translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Conflicts: %1 · on the maybe list: %2 · agreed: %3 · awaiting a second decision: %4</source>
        <translation>冲突：%1 篇 · 待定：%2 篇 · 一致：%3 篇 · 等待第二位成员决定：%4 篇</translation>
    </message>
    <message>
        <location line="-7"/>
        <source>undefined</source>
        <translation>无定义</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>No agreement figures yet: they need two members&apos; decisions on the same papers (readable once the owner unblinds).</source>
        <translation>暂无一致性数据：需要两位成员对相同文献的决定（所有者解除盲审后可见）。</translation>
    </message>
</context>
<context>
    <name>QFileDialog</name>
    <message>
        <location filename="../../desktop/common/i18n.py" line="+25"/>
        <source>&amp;Look in:</source>
        <translation>查找范围(&amp;L)：</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Files of &amp;type:</source>
        <translation>文件类型(&amp;T)：</translation>
    </message>
</context>
<context>
    <name>RatingWidget</name>
    <message>
        <location filename="../../desktop/reader/rating_widget.py" line="+39"/>
        <source>Rating: click a star, or press 1–5 (0 clears)</source>
        <translation>评分：点击星标，或按 1–5（0 清除）</translation>
    </message>
    <message numerus="yes">
        <location line="+14"/>
        <source>%n of 5 stars</source>
        <translation>
            <numerusform>%n/5 星</numerusform>
        </translation>
    </message>
    <message>
        <location line="+0"/>
        <source>not rated</source>
        <translation>未评分</translation>
    </message>
</context>
<context>
    <name>Reader</name>
    <message>
        <location filename="../../desktop/reader/reader_labels.py" line="+11"/>
        <source>(%1 more characters of this abstract are not shown)</source>
        <translation>（此摘要还有 %1 个字符未显示）</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Submitted to %1</source>
        <translation>投稿至 %1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Venue decision: %1</source>
        <translation>会议审稿结果：%1</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Reject</source>
        <translation>拒稿</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Accept</source>
        <translation>录用</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Poster</source>
        <translation>海报</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Spotlight</source>
        <translation>亮点报告</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Oral</source>
        <translation>口头报告</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Workshop</source>
        <translation>研讨会</translation>
    </message>
    <message>
        <location line="+1"/>
        <location line="+1"/>
        <source>Withdrawn</source>
        <translation>已撤稿</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>vol. %1</source>
        <translation>第 %1 卷</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>no. %1</source>
        <translation>第 %1 期</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>pp. %1</source>
        <translation>第 %1 页</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>ed. %1</source>
        <translation>%1 编</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>ISBN %1</source>
        <translation>ISBN %1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>ISSN %1</source>
        <translation>ISSN %1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Journal article</source>
        <translation>期刊文章</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Book</source>
        <translation>图书</translation>
    </message>
    <message>
        <location line="+1"/>
        <location line="+1"/>
        <source>Chapter</source>
        <translation>图书章节</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>PhD thesis</source>
        <translation>博士论文</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Master&apos;s thesis</source>
        <translation>硕士论文</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Thesis</source>
        <translation>学位论文</translation>
    </message>
    <message>
        <location line="+1"/>
        <location line="+1"/>
        <source>Report</source>
        <translation>报告</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Unpublished</source>
        <translation>未发表</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Web page</source>
        <translation>网页</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>and %1 more tags</source>
        <translation>另有 %1 个标签</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Presentation: %1</source>
        <translation>报告形式：%1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Session: %1</source>
        <translation>分会场：%1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>TL;DR: %1</source>
        <translation>一句话总结：%1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Versions:</source>
        <translation>版本：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>%1 file</source>
        <translation>%1 文件</translation>
    </message>
</context>
<context>
    <name>ReaderView</name>
    <message>
        <location filename="../../desktop/reader/reader_view.py" line="+73"/>
        <source>Not opened: %1 is not a document</source>
        <translation>未打开：%1 不是文档</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The linked file is not on this computer: %1</source>
        <translation>链接的文件不在这台计算机上：%1</translation>
    </message>
</context>
<context>
    <name>ReasonPicker</name>
    <message>
        <location filename="../../desktop/reader/screening_keys.py" line="+28"/>
        <source>Exclusion reasons</source>
        <translation>排除理由</translation>
    </message>
    <message>
        <location line="+1"/>
        <location line="+1"/>
        <source>Exclude: why?</source>
        <translation>排除：理由？</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>&amp;0  Exclude without a reason</source>
        <translation>&amp;0  无理由排除</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Edit the reasons…</source>
        <translation>编辑理由…</translation>
    </message>
</context>
<context>
    <name>ResolveDialog</name>
    <message>
        <location filename="../../desktop/docks/resolve_dialog.py" line="+72"/>
        <source>Resolve: this paper is in no shared project</source>
        <translation>裁决：此文献不属于任何共享项目</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>%1 (owner)</source>
        <translation>%1（所有者）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>%1 more</source>
        <translation>另外 %1 人</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Conflicts in “%1” are resolved by %2 only</source>
        <translation>“%1”中的冲突仅由 %2 裁决</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Resolve: “%1” is blind until its owner %2 unblinds it</source>
        <translation>裁决：“%1”处于盲审状态，需所有者 %2 先解除盲审</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Resolve: no conflict on this paper in “%1”</source>
        <translation>裁决：此文献在“%1”中没有冲突</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>Resolve the conflict</source>
        <translation>裁决冲突</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Resolved by %1 as %2: choosing again changes it.</source>
        <translation>已由 %1 裁决为“%2”：再次选择将更改裁决。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The project&apos;s decision on this paper (the reviewers&apos; decisions stay):</source>
        <translation>项目对此文献的决定（审阅者的决定保持不变）：</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>&amp;Include</source>
        <translation>纳入(&amp;I)</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>&amp;Exclude</source>
        <translation>排除(&amp;E)</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>&amp;Maybe</source>
        <translation>待定(&amp;M)</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Exclusion reason</source>
        <translation>排除理由</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>(no reason given)</source>
        <translation>（未给出理由）</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>&amp;Reason:</source>
        <translation>理由(&amp;R)：</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Resolve</source>
        <translation>裁决</translation>
    </message>
    <message>
        <location line="+15"/>
        <source>include</source>
        <translation>纳入</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>exclude</source>
        <translation>排除</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>maybe</source>
        <translation>待定</translation>
    </message>
    <message>
        <location line="+24"/>
        <source>Resolving on the server…</source>
        <translation>正在服务器上裁决…</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>The project&apos;s server is unreachable: %1</source>
        <translation>无法连接项目的服务器：%1</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Resolved %1 as %2</source>
        <translation>已将 %1 裁决为“%2”</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Nothing was resolved; try again when the server is reachable.</source>
        <translation>未作任何裁决；请在服务器可连接时重试。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Nothing was resolved.</source>
        <translation>未作任何裁决。</translation>
    </message>
</context>
<context>
    <name>ScreeningKeys</name>
    <message>
        <location filename="../../desktop/reader/screening_keys.py" line="+72"/>
        <source>Included</source>
        <translation>已纳入</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Excluded: %1</source>
        <translation>已排除：%1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Excluded</source>
        <translation>已排除</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Maybe</source>
        <translation>待定</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>No decision</source>
        <translation>未决定</translation>
    </message>
</context>
<context>
    <name>SearchSession</name>
    <message numerus="yes">
        <location filename="../../desktop/list/search_session.py" line="+297"/>
        <source>%Ln paper(s) the import added match: at the end of the list (F5 ranks everything again)</source>
        <translation>
            <numerusform>导入新增的 %Ln 篇文献符合条件：已放在列表末尾（按 F5 重新排序全部）</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>SearchWorker</name>
    <message>
        <location filename="../../desktop/list/search_worker.py" line="+73"/>
        <source>Rebuilding the search index…</source>
        <translation>正在重建搜索索引…</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Search index rebuilt</source>
        <translation>搜索索引已重建</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>Rebuilding the search index: %1 of %2 papers</source>
        <translation>正在重建搜索索引：%1/%2 篇文献</translation>
    </message>
    <message>
        <location line="+34"/>
        <source>Preparing recommendations…</source>
        <translation>正在准备推荐…</translation>
    </message>
</context>
<context>
    <name>SharedNotesView</name>
    <message>
        <location filename="../../desktop/docks/shared_notes.py" line="+28"/>
        <source>Tags and notes other members shared on this paper:</source>
        <translation>其他成员在此文献上共享的标签和笔记：</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>As each member wrote them (notes as their Markdown source). A project shares tags and notes only when its owner turns that on, and they are readable once the owner unblinds it.</source>
        <translation>按各成员所写原样显示（笔记为 Markdown 源文本）。只有项目所有者开启共享时，项目才共享标签和笔记；所有者解除盲审后方可查看。</translation>
    </message>
    <message>
        <location line="+25"/>
        <source>%1 (project “%2”)</source>
        <translation>%1（项目“%2”）</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Tags: %1</source>
        <translation>标签：%1</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Note:</source>
        <translation>笔记：</translation>
    </message>
</context>
<context>
    <name>Sidebar</name>
    <message>
        <location filename="../../desktop/docks/sidebar.py" line="+103"/>
        <source>Library</source>
        <translation>文库</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>All papers</source>
        <translation>全部文献</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Unread</source>
        <translation>未读</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Recommended</source>
        <translation>推荐</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Unread papers like the ones you rated 4 or 5 stars</source>
        <translation>与你评为 4 或 5 星的文献相似的未读文献</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Interests</source>
        <translation>兴趣</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>One queue across your interests: a accepts, x dismisses</source>
        <translation>汇集所有兴趣的队列：按 a 接受，按 x 忽略</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Saved searches</source>
        <translation>已保存的搜索</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Venues</source>
        <translation>会议/期刊</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>(no venue)</source>
        <translation>（无会议/期刊）</translation>
    </message>
    <message>
        <location line="+79"/>
        <source>read %1 of %2</source>
        <translation>已读 %1/%2</translation>
    </message>
    <message>
        <location line="-76"/>
        <source>Ratings</source>
        <translation>评分</translation>
    </message>
    <message numerus="yes">
        <location line="+91"/>
        <source>%n stars</source>
        <translation>
            <numerusform>%n 星</numerusform>
        </translation>
    </message>
    <message>
        <location line="-90"/>
        <source>Unrated</source>
        <translation>未评分</translation>
    </message>
    <message>
        <location line="-19"/>
        <source>Conflicts</source>
        <translation>冲突</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The project&apos;s papers whose decisions conflict (include against exclude), not resolved yet</source>
        <translation>项目中决定相冲突（纳入对排除）且尚未裁决的文献</translation>
    </message>
    <message>
        <location line="+19"/>
        <source>Tags</source>
        <translation>标签</translation>
    </message>
    <message>
        <location line="+132"/>
        <source>Delete saved search</source>
        <translation>删除已保存的搜索</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Papers I like (positives for recommendations)</source>
        <translation>我喜欢的文献（推荐的正例）</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Suggest papers for this tag</source>
        <translation>为此标签推荐文献</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Use as an interest</source>
        <translation>设为兴趣</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Rename or merge tag…</source>
        <translation>重命名或合并标签…</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Delete tag…</source>
        <translation>删除标签…</translation>
    </message>
    <message>
        <location line="+22"/>
        <source>Save search</source>
        <translation>保存搜索</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>A name for “%1”:</source>
        <translation>为“%1”命名：</translation>
    </message>
    <message>
        <location line="+15"/>
        <location line="+14"/>
        <source>Rename tag</source>
        <translation>重命名标签</translation>
    </message>
    <message>
        <location line="-13"/>
        <source>New name for “%1”:</source>
        <translation>“%1”的新名称：</translation>
    </message>
    <message>
        <location line="+6"/>
        <source>Merge tags</source>
        <translation>合并标签</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>“%1” exists already. Merge “%2” into it?</source>
        <translation>“%1”已存在。要将“%2”合并到其中吗？</translation>
    </message>
    <message>
        <location line="+14"/>
        <source>Delete tag</source>
        <translation>删除标签</translation>
    </message>
    <message numerus="yes">
        <location line="+1"/>
        <source>Remove the tag “%1” from %Ln paper(s)?</source>
        <translation>
            <numerusform>要从 %Ln 篇文献中移除标签“%1”吗？</numerusform>
        </translation>
    </message>
</context>
<context>
    <name>SyncSchedule</name>
    <message>
        <location filename="../../desktop/window/sync.py" line="+54"/>
        <source>Sync status</source>
        <translation>同步状态</translation>
    </message>
    <message>
        <location line="+38"/>
        <source>No sync server is set for this library: margin sync --server URL</source>
        <translation>此文库尚未设置同步服务器：margin sync --server URL</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Syncing…</source>
        <translation>正在同步…</translation>
    </message>
    <message numerus="yes">
        <location line="+99"/>
        <source>Sync: server unreachable · %Ln changed field(s) waiting</source>
        <translation>
            <numerusform>同步：无法连接服务器 · %Ln 个字段的更改待发送</numerusform>
        </translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Sync: server unreachable</source>
        <translation>同步：无法连接服务器</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The sync server could not be reached: %1
What changed here is kept and goes with the next sync.</source>
        <translation>无法连接同步服务器：%1
本机的更改已保留，将在下次同步时发送。</translation>
    </message>
    <message numerus="yes">
        <location line="+4"/>
        <source>Sync failed · %Ln changed field(s) waiting</source>
        <translation>
            <numerusform>同步失败 · %Ln 个字段的更改待发送</numerusform>
        </translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Sync failed</source>
        <translation>同步失败</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The sync server keeps its data in a newer form than this Margin knows: update Margin here to sync. Nothing was written.</source>
        <translation>同步服务器的数据格式比此版本的 Margin 更新：请在本机更新 Margin 后再同步。未写入任何内容。</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The sync server refused the sync: %1</source>
        <translation>同步服务器拒绝了此次同步：%1</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>The sync did not run: %1</source>
        <translation>同步未能进行：%1</translation>
    </message>
    <message numerus="yes">
        <location line="+2"/>
        <source>Sync: %Ln changed field(s) waiting</source>
        <translation>
            <numerusform>同步：%Ln 个字段的更改待发送</numerusform>
        </translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Last sync with %1: %2 sent, %3 received.</source>
        <translation>上次与 %1 同步：发送 %2，接收 %3 个字段的更改。</translation>
    </message>
    <message numerus="yes">
        <location line="+2"/>
        <source>%Ln changed field(s)</source>
        <translation>
            <numerusform>%Ln 个字段的更改</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+3"/>
        <source>%Ln conflict(s) decided by the clock (margin sync --log).</source>
        <translation>
            <numerusform>%Ln 处冲突已按时间先后裁定（margin sync --log）。</numerusform>
        </translation>
    </message>
    <message>
        <location line="-12"/>
        <source>Synced</source>
        <translation>已同步</translation>
    </message>
</context>
<context>
    <name>TagEditor</name>
    <message>
        <location filename="../../desktop/reader/tag_editor.py" line="+66"/>
        <source>Add a tag and press Enter</source>
        <translation>输入标签后按 Enter</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>New tag</source>
        <translation>新标签</translation>
    </message>
    <message>
        <location line="+43"/>
        <source>Remove the tag “%1”</source>
        <translation>移除标签“%1”</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Remove tag %1</source>
        <translation>移除标签 %1</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>and %1 more</source>
        <translation>另有 %1 个</translation>
    </message>
</context>
<context>
    <name>WindowStatus</name>
    <message numerus="yes">
        <location filename="../../desktop/window/status.py" line="+124"/>
        <source>%1 of %Ln paper(s) · read %2 of %3</source>
        <translation>
            <numerusform>%1 / %Ln 篇文献 · 已读 %2 / %3</numerusform>
        </translation>
    </message>
    <message numerus="yes">
        <location line="+3"/>
        <source>counting… of %Ln paper(s) · read %2 of %3</source>
        <translation>
            <numerusform>正在计数… / %Ln 篇文献 · 已读 %2 / %3</numerusform>
        </translation>
    </message>
    <message>
        <location line="+5"/>
        <source>No papers match “%1”.</source>
        <translation>没有与“%1”匹配的文献。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The library has no papers yet: File → Import…</source>
        <translation>文库中还没有文献：文件 → 导入…</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Filters on: %1. All papers clears them.</source>
        <translation>已启用的筛选：%1。点击“全部文献”可清除。</translation>
    </message>
    <message>
        <location line="+16"/>
        <source>Not saved yet: %1</source>
        <translation>尚未保存：%1</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Margin keeps these and saves them as soon as the library can take them:
%1

%2</source>
        <translation>Margin 会保留这些更改，待文库可以写入时立即保存：
%1

%2</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Not saved yet, Margin will try again: %1</source>
        <translation>尚未保存，Margin 将重试：%1</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>All changes are saved</source>
        <translation>所有更改均已保存</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Not undone: “%1” was changed elsewhere since (the command line, another window or a sync); that change is kept</source>
        <translation>未撤销：“%1”此后已在别处被修改（命令行、另一个窗口或同步），保留那次修改</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Preparing “%1”…</source>
        <translation>正在准备“%1”…</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>The disk is full: changes can&apos;t be saved</source>
        <translation>磁盘已满：更改无法保存</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Read-only: changes can&apos;t be saved</source>
        <translation>只读：更改无法保存</translation>
    </message>
    <message>
        <location line="+18"/>
        <source>Search problem: %1</source>
        <translation>搜索出错：%1</translation>
    </message>
</context>
</TS>
