<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN">
<context>
    <name></name>
    <message>
        <location filename="../../desktop/app.py" line="+69"/>
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
        <location filename="../../desktop/window/shortcuts.py" line="+120"/>
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
        <location filename="../../desktop/window/dialogs.py" line="+30"/>
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
    <message>
        <location line="+4"/>
        <source>New</source>
        <translation>新增</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Updated</source>
        <translation>已更新</translation>
    </message>
    <message>
        <location line="+7"/>
        <source>Skipped:</source>
        <translation>已跳过：</translation>
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
        <location filename="../../desktop/docks/progress.py" line="+221"/>
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
        <source>Liked papers still unseen: about %1 (%2–%3, 95% interval), from %4 random papers rated (%5 liked)</source>
        <translation>尚未看到的喜欢文献：约 %1 篇（95% 区间 %2–%3），依据 %4 篇随机文献的评分（喜欢 %5 篇）</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>%1 unseen papers were added after the check: not covered</source>
        <translation>抽查后新增了 %1 篇未看过的文献：不在估计范围内</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>The next %1 recommended are likely to hold at most %2</source>
        <translation>接下来推荐的 %1 篇中很可能至多有 %2 篇喜欢的</translation>
    </message>
    <message>
        <location filename="../../desktop/edits/undo.py" line="+94"/>
        <source>Set rating</source>
        <translation>设置评分</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Clear rating</source>
        <translation>清除评分</translation>
    </message>
    <message>
        <location filename="../../desktop/edits/operations.py" line="+92"/>
        <location filename="../../desktop/edits/undo.py" line="+8"/>
        <source>Mark read</source>
        <translation>标为已读</translation>
    </message>
    <message>
        <location filename="../../desktop/edits/undo.py" line="+0"/>
        <source>Mark unread</source>
        <translation>标为未读</translation>
    </message>
    <message>
        <location line="+9"/>
        <location filename="../../desktop/window/actions.py" line="+154"/>
        <source>Set title</source>
        <translation>设置标题</translation>
    </message>
    <message>
        <location line="+8"/>
        <source>Add tag</source>
        <translation>添加标签</translation>
    </message>
    <message>
        <location line="+0"/>
        <source>Remove tag</source>
        <translation>移除标签</translation>
    </message>
    <message>
        <location line="+25"/>
        <source>Dismiss suggestion</source>
        <translation>忽略推荐</translation>
    </message>
    <message numerus="yes">
        <location line="+49"/>
        <source>Delete %n paper(s)</source>
        <translation>
            <numerusform>删除 %n 篇文献</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../desktop/window/actions.py" line="-113"/>
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
        <source>&amp;Export…</source>
        <translation>导出(&amp;E)…</translation>
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
        <source>&amp;Copy citation (BibTeX)</source>
        <translation>复制引用（BibTeX）(&amp;C)</translation>
    </message>
    <message>
        <location line="+1"/>
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
    <message numerus="yes">
        <location line="+163"/>
        <source>Exporting %Ln paper(s)…</source>
        <translation>
            <numerusform>正在导出 %Ln 篇文献…</numerusform>
        </translation>
    </message>
    <message>
        <location filename="../../desktop/window/shortcuts.py" line="-6"/>
        <location line="+5"/>
        <source>Keyboard shortcuts</source>
        <translation>键盘快捷键</translation>
    </message>
    <message>
        <location filename="../../desktop/window/actions.py" line="-162"/>
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
        <location line="+16"/>
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
        <location line="+35"/>
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
        <location filename="../../desktop/window/library_menu.py" line="+29"/>
        <source>System language</source>
        <translation>系统语言</translation>
    </message>
    <message>
        <location line="+41"/>
        <source>Cannot open the library</source>
        <translation>无法打开文库</translation>
    </message>
    <message>
        <location line="+40"/>
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
        <location filename="../../desktop/edits/operations.py" line="+50"/>
        <location filename="../../desktop/reader/highlight_view.py" line="+55"/>
        <source>Highlight words</source>
        <translation>高亮词</translation>
    </message>
    <message>
        <location filename="../../desktop/window/closing.py" line="+20"/>
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
        <location line="+25"/>
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
        <location filename="../../desktop/docks/map.py" line="+55"/>
        <source>Conference map</source>
        <translation>会议地图</translation>
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
        <location line="+46"/>
        <source>Semantic similarity is off (%1): ranking uses words alone</source>
        <translation>语义相似度已关闭（%1）：排序仅按词语</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>Semantic vectors from titles: %1 of %2</source>
        <translation>由标题计算语义向量：%1 / %2</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Semantic vectors: %1 of %2</source>
        <translation>语义向量：%1 / %2</translation>
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
        <location filename="../../desktop/list/list_controller.py" line="+170"/>
        <source>Similar to: %1</source>
        <translation>相似于：%1</translation>
    </message>
</context>
<context>
    <name>MainWindow</name>
    <message>
        <location filename="../../desktop/reader/current_paper.py" line="+43"/>
        <source>No paper selected.</source>
        <translation>未选择文献。</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>Similar papers</source>
        <translation>相似文献</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>For the interest “%1”: </source>
        <translation>因兴趣“%1”推荐：</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Recommended for: </source>
        <translation>推荐理由：</translation>
    </message>
    <message>
        <location filename="../../desktop/window/main_window.py" line="+250"/>
        <source>Set title</source>
        <translation>设置标题</translation>
    </message>
    <message>
        <location line="+10"/>
        <source>A tag must have 1 to 200 characters</source>
        <translation>标签长度须为 1 到 200 个字符</translation>
    </message>
    <message>
        <location filename="../../desktop/window/layout.py" line="+92"/>
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
        <location line="+12"/>
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
        <location line="+17"/>
        <source>Colour the map by</source>
        <translation>地图着色依据</translation>
    </message>
    <message>
        <location filename="../../desktop/docks/map_plot.py" line="+29"/>
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
        <location filename="../../desktop/docks/map.py" line="+44"/>
        <source>Drawing the map…</source>
        <translation>正在绘制地图…</translation>
    </message>
    <message>
        <location line="+11"/>
        <source>The map could not be drawn: %1</source>
        <translation>无法绘制地图：%1</translation>
    </message>
    <message>
        <location line="+37"/>
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
        <location line="+29"/>
        <source>%1 of %2 papers lit</source>
        <translation>已高亮 %1 / %2 篇文献</translation>
    </message>
    <message>
        <location line="+91"/>
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
</context>
<context>
    <name>NoteEditor</name>
    <message>
        <location filename="../../desktop/reader/note_editor.py" line="+49"/>
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
        <location line="+14"/>
        <source>This note was changed elsewhere. Both versions are kept in the note history.</source>
        <translation>此笔记已在别处被修改。两个版本都保存在笔记历史中。</translation>
    </message>
    <message>
        <location line="+5"/>
        <source>Show theirs</source>
        <translation>显示另一版本</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Keep mine</source>
        <translation>保留我的版本</translation>
    </message>
    <message>
        <location line="+89"/>
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
        <location filename="../../desktop/reader/note_session.py" line="+79"/>
        <source>This note was also changed outside this window; that version is in Edit → Note history</source>
        <translation>此笔记也在本窗口之外被修改；该版本见 编辑 → 笔记历史</translation>
    </message>
    <message>
        <location line="+12"/>
        <source>The note could not be saved yet (%1); Margin keeps it and tries again</source>
        <translation>笔记暂时无法保存（%1）；Margin 会保留并重试</translation>
    </message>
    <message>
        <location line="+60"/>
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
        <location filename="../../desktop/list/paper_model.py" line="+57"/>
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
    <message>
        <location line="+130"/>
        <source>et al.</source>
        <translation>等</translation>
    </message>
    <message numerus="yes">
        <location line="+47"/>
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
        <location filename="../../desktop/docks/progress.py" line="-202"/>
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
        <location line="+5"/>
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
        <location line="+5"/>
        <source>Liked papers in all, likely (95%): those found and those still unseen</source>
        <translation>喜欢文献总数的可能范围（95%）：已找到的加上尚未看到的</translation>
    </message>
    <message>
        <location line="+4"/>
        <source>random order</source>
        <translation>随机顺序</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>found</source>
        <translation>已找到</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>liked in all, likely (95%)</source>
        <translation>喜欢总数的可能范围（95%）</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Rate %1 random unseen papers</source>
        <translation>为 %1 篇随机未看文献评分</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Draws random papers of this view that you have not seen; rating them tells how many papers you would like are still unseen</source>
        <translation>从当前视图中随机抽取你尚未看过的文献；为它们评分可估计还有多少你会喜欢的文献尚未看到</translation>
    </message>
    <message>
        <location line="+3"/>
        <location line="+128"/>
        <source>Show the check</source>
        <translation>显示抽查</translation>
    </message>
    <message>
        <location line="-112"/>
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
        <location line="+51"/>
        <source>Progress could not be computed: %1</source>
        <translation>无法计算进度：%1</translation>
    </message>
    <message>
        <location line="+24"/>
        <source>Show the check (%1 to rate)</source>
        <translation>显示抽查（待评分 %1 篇）</translation>
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
        <source>Decision: %1</source>
        <translation>审稿结果：%1</translation>
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
</context>
<context>
    <name>SearchWorker</name>
    <message>
        <location filename="../../desktop/list/search_worker.py" line="+52"/>
        <source>Rebuilding the search index…</source>
        <translation>正在重建搜索索引…</translation>
    </message>
    <message>
        <location line="+3"/>
        <source>Search index rebuilt</source>
        <translation>搜索索引已重建</translation>
    </message>
    <message>
        <location line="+9"/>
        <source>Rebuilding the search index: %1 of %2 papers</source>
        <translation>正在重建搜索索引：%1/%2 篇文献</translation>
    </message>
    <message>
        <location line="+22"/>
        <source>Preparing recommendations…</source>
        <translation>正在准备推荐…</translation>
    </message>
</context>
<context>
    <name>Sidebar</name>
    <message>
        <location filename="../../desktop/docks/sidebar.py" line="+91"/>
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
        <location line="+2"/>
        <source>Unread papers like the ones you rated 4 or 5 stars</source>
        <translation>与你评为 4 或 5 星的文献相似的未读文献</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>Interests</source>
        <translation>兴趣</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>One queue across your interests: a accepts, x dismisses</source>
        <translation>汇集所有兴趣的队列：按 a 接受，按 x 忽略</translation>
    </message>
    <message>
        <location line="+2"/>
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
        <location line="+34"/>
        <source>read %1 of %2</source>
        <translation>已读 %1/%2</translation>
    </message>
    <message>
        <location line="-31"/>
        <source>Ratings</source>
        <translation>评分</translation>
    </message>
    <message numerus="yes">
        <location line="+43"/>
        <source>%n stars</source>
        <translation>
            <numerusform>%n 星</numerusform>
        </translation>
    </message>
    <message>
        <location line="-42"/>
        <source>Unrated</source>
        <translation>未评分</translation>
    </message>
    <message>
        <location line="+2"/>
        <source>Tags</source>
        <translation>标签</translation>
    </message>
    <message>
        <location line="+84"/>
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
        <location line="+2"/>
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
        <location line="+17"/>
        <source>Save search</source>
        <translation>保存搜索</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>A name for “%1”:</source>
        <translation>为“%1”命名：</translation>
    </message>
    <message>
        <location line="+17"/>
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
        <location line="+13"/>
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
    <name>TagEditor</name>
    <message>
        <location filename="../../desktop/reader/tag_editor.py" line="+54"/>
        <source>Add a tag and press Enter</source>
        <translation>输入标签后按 Enter</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>New tag</source>
        <translation>新标签</translation>
    </message>
    <message>
        <location line="+32"/>
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
        <location filename="../../desktop/window/status.py" line="+53"/>
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
        <location line="+4"/>
        <source>No papers match “%1”.</source>
        <translation>没有与“%1”匹配的文献。</translation>
    </message>
    <message>
        <location line="+1"/>
        <source>The library has no papers yet: File → Import…</source>
        <translation>文库中还没有文献：文件 → 导入…</translation>
    </message>
    <message>
        <location line="+14"/>
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
        <location line="+14"/>
        <source>Search problem: %1</source>
        <translation>搜索出错：%1</translation>
    </message>
</context>
</TS>
