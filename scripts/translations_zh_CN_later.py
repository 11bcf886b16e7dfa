"""The Simplified Chinese of the window's strings added with issues 26–34 (sync, screening decisions, versions,
getting papers, backups, semantic vectors), merged into TRANSLATIONS by scripts/translations_zh_CN.py; the same
rules as there."""

LATER: dict[str, str] = {
    # strings shown through tr(VARIABLE), marked with QT_TRANSLATE_NOOP (db/text/translatable.py) since session 8:
    # the keyboard shortcuts, the export formats, the import dialog's filter, Help → Search syntax
    "search (from the list, reader, sidebar or note preview)": "检索（在列表、阅读区、侧栏或笔记预览中均可）",
    "accept a suggestion into its tag or interest": "接受建议，加入其标签或兴趣",
    "dismiss a suggestion (kept: the tag learns from it)": "拒绝建议（会保留：标签从中学习）",
    "Paper lists (*.txt *.json *.jsonl *.csv *.bib *.bibtex *.biblatex *.ris *.xml *.atom);;All files (*)":
        "文献列表 (*.txt *.json *.jsonl *.csv *.bib *.bibtex *.biblatex *.ris *.xml *.atom);;所有文件 (*)",
    "Markdown (one file)": "Markdown（单个文件）",
    "Markdown folder (one file per paper)": "Markdown 文件夹（每篇文献一个文件）",
    "CSV (exact text, for programs)": "CSV（原样文本，供程序读取）",
    "Margin JSON (backup; import restores it)": "Margin JSON（备份；导入即可恢复）",
    "Excel workbook (for spreadsheets)": "Excel 工作簿（用于电子表格）",
    "is:recommended — unread papers like the ones you rated 4–5 stars (and unlike those rated 1–2)\n"
    "similar:ID — papers like one paper (press s in the list, or click “Similar papers” in the reader)\n"
    "similar-tag:\"NAME\" — untagged papers like those carrying a tag; a adds the tag, x dismisses\n"
    "is:interests — one queue across your interests (tags: right-click → Use as an interest); a accepts the paper "
    "into its interest, x dismisses it (kept: that interest learns from it)\n"
    "is:check — the papers of the random check of a view (View → Triage progress)\n"
    "is:conflict — a shared project's papers whose decisions conflict, once its owner unblinded it":
        "is:recommended — 与你评为 4–5 星的文献相似（且与评为 1–2 星的不相似）的未读文献\n"
        "similar:ID — 与某一篇文献相似的文献（在列表中按 s，或在阅读区点击“相似文献”）\n"
        "similar-tag:\"NAME\" — 与带有某标签的文献相似、但尚未加该标签的文献；按 a 加上标签，按 x 拒绝\n"
        "is:interests — 汇总你所有兴趣的一个队列（标签：右键 → 用作兴趣）；按 a 将文献接受进其兴趣，"
        "按 x 拒绝（会保留：该兴趣从中学习）\n"
        "is:check — 某个视图的随机抽查中的文献（视图 → 筛选进度）\n"
        "is:conflict — 共享项目中决定相互冲突的文献（须项目所有者解除盲审之后）",
    "Search syntax\n\n"
    "  graph neural          papers containing both words (title, abstract, authors, note, tags);\n"
    "                        best matches first, a title match counts more; \"networks\" also finds \"network\"\n"
    "  \"chain of thought\"    the exact phrase, small words included\n"
    "  reinforc*             words starting with \"reinforc\" (* and ? are wildcards)\n"
    "  title:transformer     only in the title; likewise abstract:  author:  note:  venue:\n"
    "  tag:\"graph neural nets\"   papers carrying that whole tag (tag:graph* for tags starting with \"graph\")\n"
    "                        (a double quote inside the quotes is written twice)\n"
    "  year:2019  year:2017..2019  year:>=2018      years: one, a range, or a comparison (> >= < <=)\n"
    "  rating:>=4  rating:3  rating:none            stars 1..5; none = unrated\n"
    "  read:yes  read:no                            read state\n"
    "  decision:include  decision:exclude  decision:maybe  decision:none     screening decision\n"
    "  reason:\"wrong population\"                    excluded for that reason (reason:none: excluded, no reason)\n"
    "  decision:oral  decision:reject               the venue's decision or presentation (accept, oral,\n"
    "                        spotlight, poster, workshop, reject, withdrawn)\n"
    "  a OR b    a AND b    NOT a    -a    (a OR b) c   combine; AND is implied between words\n"
    "                        (write AND, OR, NOT in capitals; lower-case \"or\" is an ordinary word)\n\n"
    "A query of filters only (venue:, tag:, year:, rating:, read:, decision:, reason:) lists its papers in library "
    "order.\n\n"
    "Case, accents and Unicode form do not matter (Kepes finds Képes); Chinese and Japanese text is found\n"
    "without spaces. An empty query shows every paper in library order.\n":
        "检索语法\n\n"
        "  graph neural          同时含有这两个词的文献（标题、摘要、作者、笔记、标签）；\n"
        "                        最匹配的在前，标题中的匹配权重更高；“networks”也能找到“network”\n"
        "  \"chain of thought\"    精确短语，包括其中的虚词\n"
        "  reinforc*             以“reinforc”开头的词（* 和 ? 为通配符）\n"
        "  title:transformer     只在标题中查找；同样可用 abstract:  author:  note:  venue:\n"
        "  tag:\"graph neural nets\"   带有这个完整标签的文献（tag:graph* 匹配以“graph”开头的标签）\n"
        "                        （引号内的双引号须写两次）\n"
        "  year:2019  year:2017..2019  year:>=2018      年份：某一年、一个区间或一个比较（> >= < <=）\n"
        "  rating:>=4  rating:3  rating:none            星级 1..5；none = 未评分\n"
        "  read:yes  read:no                            阅读状态\n"
        "  decision:include  decision:exclude  decision:maybe  decision:none     筛选决定\n"
        "  reason:\"wrong population\"                    因该理由被排除（reason:none：被排除且未给理由）\n"
        "  decision:oral  decision:reject               会议的录用结果或报告形式（accept、oral、\n"
        "                        spotlight、poster、workshop、reject、withdrawn）\n"
        "  a OR b    a AND b    NOT a    -a    (a OR b) c   组合条件；词与词之间默认为 AND\n"
        "                        （AND、OR、NOT 须大写；小写的“or”是普通词）\n\n"
        "只含筛选条件的检索式（venue:、tag:、year:、rating:、read:、decision:、reason:）按文献库顺序列出其文献。\n\n"
        "不区分大小写、重音符号和 Unicode 形式（Kepes 可找到 Képes）；中文和日文无需空格即可检索。\n"
        "检索式为空时按文献库顺序显示全部文献。\n",
    # issue 34: File → Get papers…, File → Add paper…, the reader's presentation, session and TL;DR
    "&Get papers…": "获取文献(&G)…",
    "&Add paper…": "添加文献(&A)…",
    "Get papers": "获取文献",
    "&Get papers": "获取文献(&G)",
    "Add paper": "添加文献",
    "&Add paper": "添加文献(&A)",
    "OpenReview venue": "OpenReview 会议",
    "arXiv category or search": "arXiv 分类或检索",
    "DBLP venue and year": "DBLP 会议与年份",
    "PMLR volume": "PMLR 卷",
    "ACL Anthology volume": "ACL Anthology 卷",
    "&Source:": "来源(&S)：",
    "&Id:": "标识(&I)：",
    "Also &rejected submissions": "同时获取被拒稿件(&R)",
    "Also &withdrawn submissions": "同时获取撤回稿件(&W)",
    "Options": "选项",
    "Search &query:": "检索式(&Q)：",
    "&From:": "起始日期(&F)：",
    "&To:": "截止日期(&T)：",
    "%1 is not a date (YYYY-MM-DD)": "%1 不是日期（YYYY-MM-DD）",
    "Give the id of what to get, e.g. %1": "请填写要获取的标识，例如 %1",
    "DOI, arXiv or OpenReview &id:": "DOI、arXiv 或 OpenReview 标识(&I)：",
    "Or type it by hand": "或手动填写",
    "&Title:": "标题(&T)：",
    "A&uthors:": "作者(&U)：",
    "&Venue:": "会议/期刊(&V)：",
    "&Year:": "年份(&Y)：",
    "A&bstract:": "摘要(&B)：",
    "not a DOI, an arXiv id or an OpenReview id: %1": "不是 DOI、arXiv 或 OpenReview 标识：%1",
    "cancelled; nothing was changed": "已取消；未做任何更改",
    "Cancel": "取消",
    "Close": "关闭",
    "Fetching…": "正在获取…",
    "Fetched %1 of %2 papers…": "已获取 %1 / %2 篇文献…",
    "Fetched %1 papers…": "已获取 %1 篇文献…",
    "Fetched: %1": "获取完成：%1",
    "Cancelling… what was fetched is kept for the next try": "正在取消…已获取的内容会保留供下次使用",
    "Presentation: %1": "报告形式：%1",
    "Session: %1": "分会场：%1",
    "TL;DR: %1": "一句话总结：%1",
    # issue 29: screening decisions, exclusion reasons, inclusion criteria, PRISMA counts
    "include (screening decision)": "纳入（筛选决定）",
    "exclude: pick a reason (1–9, 0 for none)": "排除：选择理由（1–9，0 表示无理由）",
    "maybe (decide later)": "待定（稍后决定）",
    "clear the screening decision": "清除筛选决定",
    "Screening decision": "筛选决定",
    "Clear decision": "清除决定",
    "Exclusion reasons": "排除理由",
    "Rename reason": "重命名理由",
    "Inclusion criteria": "纳入标准",
    "Exclude: why?": "排除：理由？",
    "&0  Exclude without a reason": "&0  无理由排除",
    "Edit the reasons…": "编辑理由…",
    "Included": "已纳入",
    "Excluded: %1": "已排除：%1",
    "Excluded": "已排除",
    "No decision": "未决定",
    "Screening criteria": "筛选标准",
    "Include": "纳入",
    "Exclude…": "排除…",
    "Include this paper (key I)": "纳入这篇文献（按键 I）",
    "Exclude this paper with a reason (key E)": "排除这篇文献并给出理由（按键 E）",
    "Decide later (key M)": "稍后决定（按键 M）",
    "Write what a paper must have to be included…": "写下文献须满足哪些条件才能纳入…",
    "Exclusion reasons (double-click to rename, drag to order)": "排除理由（双击重命名，拖动排序）",
    "New exclusion reason": "新的排除理由",
    "New reason": "新理由",
    "Add": "添加",
    "Remove": "移除",
    "PRISMA counts (whole library)": "PRISMA 计数（整个文库）",
    "PRISMA counts": "PRISMA 计数",
    "Stage": "阶段",
    "Screening &criteria": "筛选标准(&C)",
    "Records": "记录",
    "Screened": "已筛选",
    "(no reason)": "（无理由）",
    "Not screened yet": "尚未筛选",
    "This paper: %1": "本文献：%1",
    "Maybe": "待定",
    "excluded: %1": "已排除：%1",
    "Save counts as CSV…": "将计数保存为 CSV…",
    "Stage, reason, count rows (as progress --prisma-csv)": "阶段、理由、数量逐行（同 progress --prisma-csv）",
    "Save PRISMA counts": "保存 PRISMA 计数",
    "CSV files (*.csv)": "CSV 文件 (*.csv)",
    "Saved %1": "已保存 %1",
    "excluded": "已排除",
    "included": "已纳入",
    "maybe": "待定",
    # issue 30: versions of one work (Edit → Split from other versions, the list row, the reader)
    "Split from other &versions": "从其他版本中拆分(&V)",
    "Split from other versions": "从其他版本中拆分",
    "This paper has no other versions.": "这篇文献没有其他版本。",
    "%n versions": "%n 个版本",
    "Versions:": "版本：",
    # issue 30: annotations through other tools, citations in CSL styles, RIS, the Obsidian vault
    "Import the files' tags, ratings, read marks and notes": "导入文件中的标签、评分、已读标记和笔记",
    "RIS (EndNote, Mendeley)": "RIS（EndNote、Mendeley）",
    "APA 7th edition": "APA 第 7 版",
    "IEEE": "IEEE",
    "Chicago author-date": "芝加哥 作者-日期",
    "Nature": "Nature",
    "Citation st&yle": "引文格式(&Y)",
    "Copy &citation (%1)": "复制引文（%1）(&C)",
    "Copied the %1 citation of %Ln paper(s)": "已复制 %Ln 篇文献的 %1 引文",
    "%1 file": "%1 文件",
    "Not opened: %1 is not a document": "未打开：%1 不是文档",
    "The linked file is not on this computer: %1": "链接的文件不在这台计算机上：%1",
    "Keep a Markdown &vault updated…": "保持 Markdown 笔记库同步(&V)…",
    "Keep a Markdown &vault updated (%1)": "保持 Markdown 笔记库同步（%1）(&V)",
    "Keep a Markdown vault updated in": "保持 Markdown 笔记库同步到",
    "The Markdown vault could not be written: %1": "无法写入 Markdown 笔记库：%1",
    "Kept their own tags, rating or note (the file's differed)": "保留了自己的标签、评分或笔记（与文件中的不同）",
    # issue 31: read-only and full disks, backups, filters, recommendations being prepared
    "Read-only: changes can't be saved": "只读：更改无法保存",
    "The disk is full: changes can't be saved": "磁盘已满：更改无法保存",
    "Filters on: %1. All papers clears them.": "已启用的筛选：%1。点击“全部文献”可清除。",
    "Preparing “%1”…": "正在准备“%1”…",
    "&Back up now": "立即备份(&B)",
    "Backing up…": "正在备份…",
    "Backed up to %1": "已备份到 %1",
    # issue 26: sync through a PostgreSQL server (desktop/window/sync.py, File → Sync now)
    "S&ync now": "立即同步(&Y)",
    "Sync status": "同步状态",
    "No sync server is set for this library: margin sync --server URL":
        "此文库尚未设置同步服务器：margin sync --server URL",
    "Syncing…": "正在同步…",
    "Sync: %1": "同步：%1",
    "Sync: %Ln change(s) waiting": "同步：%Ln 项更改待发送",
    "Synced": "已同步",
    # issue 29: the check by rank, the interval explained, the stopping rule; the map's legend and progress
    "Stop when, with 95% confidence, found at least": "停止条件：以 95% 置信度已找到至少",
    "Share of the liked papers to find": "要找到的喜欢文献比例",
    "How the check is drawn": "抽查的抽取方式",
    "at random": "随机",
    "by rank": "按排名",
    "Rate %1 unseen papers": "为 %1 篇未看文献评分",
    ("Draws papers of this view that you have not seen; rating them tells how many papers you would like are "
     "still unseen"):
        "从此视图中抽取你尚未看过的文献；为它们评分可估计还有多少你会喜欢的文献未看",
    "up to %1": "至多 %1",
    "drawn by rank": "按排名抽取",
    "drawn at random": "随机抽取",
    "Liked papers still unseen: about %1 (%2–%3, 95% interval), from %4 check papers rated, %6 (%5 liked)":
        "尚未看到的喜欢文献：约 %1 篇（%2–%3，95% 区间），来自 %4 篇已评分的抽查文献，"
        "%6（其中喜欢 %5 篇）",
    "95% of checks drawn this way hold the true number inside their interval.":
        "以此方式抽取的抽查中，95% 的区间包含真实数目。",
    "About %1 more check ratings would roughly halve it.": "再为约 %1 篇抽查文献评分，区间宽度约可减半。",
    "Stop now: with 95% confidence at least %1 of the liked papers are found.":
        "现在可以停止：以 95% 置信度，已找到至少 %1 的喜欢文献。",
    "find %1 more liked papers": "再找到 %1 篇喜欢的文献",
    "rate about %1 more check papers": "再为约 %1 篇抽查文献评分",
    " or ": " 或 ",
    "screen on (the check cannot show it by itself)": "继续筛选（仅靠抽查无法证明）",
    "Go on: with 95% confidence at least %1 of the liked papers are found; to show %2, %3.":
        "继续：以 95% 置信度已找到至少 %1 的喜欢文献；要证明 %2，请%3。",
    "Computing the map": "正在计算地图",
    "Computing the map of the papers…": "正在计算文献地图…",
    "Colour legend": "颜色图例",
    "unread": "未读",
    "tagged %1": "带标签 %1",
    "not tagged": "无此标签",
    "not in the list": "不在列表中",
    # issue 32: semantic similarity (desktop/window/embedding.py)
    "Semantic vectors": "语义向量",
    "Semantic similarity is off (%1): ranking uses words alone": "语义相似度已关闭（%1）：排序仅按词语",
    "Semantic vectors from titles: %1 of %2": "由标题计算语义向量：%1 / %2",
    "Semantic vectors: %1 of %2": "语义向量：%1 / %2",
    # the second trial (a read-only library's note)
    "This library can't be changed: notes can be read, not written": "此文库无法更改：笔记只能阅读，不能编写",
    # issue 29 (the check's limit): what a check that found no liked paper cannot rule out
    ("The check found none: up to %1 could still be unseen (spread evenly, that many escape %2 draws more than 5% "
     "of the time, however drawn)."):
        "抽查未发现喜欢的文献：仍可能有至多 %1 篇未看（若均匀分布，无论如何抽取，%2 次抽取有超过 5% 的可能"
        "一篇也抽不到）。",
    ("At random: an exact interval. By rank: the top fifth of the recommended order and the rest, each at random; "
     "measured on ICLR 2018 it is no narrower than at random"):
        "随机：精确区间。按排名：推荐顺序的前五分之一与其余部分各自随机抽取；在 ICLR 2018 上实测并不比随机更窄",
    # h-polish (the trials' small defects, session 7): the sync status counts changed fields and says why in Chinese
    "Sync: server unreachable · %Ln changed field(s) waiting": "同步：无法连接服务器 · %Ln 个字段的更改待发送",
    "Sync: server unreachable": "同步：无法连接服务器",
    "The sync server could not be reached: %1\nWhat changed here is kept and goes with the next sync.":
        "无法连接同步服务器：%1\n本机的更改已保留，将在下次同步时发送。",
    "Sync failed · %Ln changed field(s) waiting": "同步失败 · %Ln 个字段的更改待发送",
    "Sync failed": "同步失败",
    "The sync server keeps its data in a newer form than this Margin knows: update Margin here to sync. Nothing was "
    "written.": "同步服务器的数据格式比此版本的 Margin 更新：请在本机更新 Margin 后再同步。未写入任何内容。",
    "The sync server refused the sync: %1": "同步服务器拒绝了此次同步：%1",
    "The sync did not run: %1": "同步未能进行：%1",
    "Sync: %Ln changed field(s) waiting": "同步：%Ln 个字段的更改待发送",
    "Last sync with %1: %2 sent, %3 received.": "上次与 %1 同步：发送 %2，接收 %3 个字段的更改。",
    "%Ln changed field(s)": "%Ln 个字段的更改",
    "%Ln conflict(s) decided by the clock (margin sync --log).": "%Ln 处冲突已按时间先后裁定（margin sync --log）。",
    # h-polish: counts of one in the singular (Qt's %n plural forms) in the progress dock, every sentence translated
    "%Ln check paper(s) rated": "%Ln 篇已评分的抽查文献",
    "Liked papers still unseen: about %1 (%2–%3, 95% interval), from %4, %6 (%5 liked)":
        "尚未看到的喜欢文献：约 %1 篇（%2–%3，95% 区间），来自 %4，%6（其中喜欢 %5 篇）",
    "About %Ln more check rating(s) would roughly halve it.": "再为约 %Ln 篇抽查文献评分，区间宽度约可减半。",
    "Not covered: %Ln unseen paper(s) added after the check": "不在估计范围内：抽查后新增了 %Ln 篇未看过的文献",
    "find %Ln more liked paper(s)": "再找到 %Ln 篇喜欢的文献",
    "rate about %Ln more check paper(s)": "再为约 %Ln 篇抽查文献评分",
    "No papers in this view.": "此视图中没有文献。",
    "Every paper of this view has been screened.": "此视图中的每篇文献都已筛选。",
    "Rate the papers you like 4 or 5 stars; progress is counted from the first one.":
        "请给喜欢的文献评 4 或 5 星；进度从第一篇喜欢的文献开始计算。",
    "Rate %Ln more paper(s) of the check to estimate what is left.": "再为抽查中的 %Ln 篇文献评分，即可估计剩余数量。",
    "Draw a check of %Ln unseen paper(s) and rate them to estimate how many liked papers are left.":
        "抽取 %Ln 篇未看过的文献作为抽查并评分，即可估计还剩多少喜欢的文献。",
    "The knee method suggests you can stop: the recent papers held few you liked.":
        "拐点法建议可以停止：最近看过的文献中喜欢的很少。",
    # h-polish: the reader's venue decision named so (not the user's screening decision)
    "Venue decision: %1": "会议审稿结果：%1",
    # issue 27: screening as a lab (desktop/docks/project_panel.py, the sidebar's Conflicts entry)
    "List the papers whose decisions conflict (%1)": "列出决定相冲突的文献（%1）",
    "Project “%1” (owner %2) is blind: no member reads another's decisions until the owner unblinds it.":
        "项目“%1”（所有者 %2）为盲审：在所有者解除盲审之前，成员看不到彼此的决定。",
    "Project “%1” (owner %2), unblinded: every member reads every member's decisions.":
        "项目“%1”（所有者 %2）已解除盲审：每位成员都能看到所有成员的决定。",
    "Show conflicts (%1)": "显示冲突（%1）",
    "The project's criteria: its owner edits them": "项目的纳入标准：由项目所有者编辑",
    "%1 & %2: %Ln paper(s), %3% agree, Cohen's κ %4": "%1 与 %2：%Ln 篇文献，一致率 %3%，Cohen κ %4",
    "undefined": "无定义",
    "Fleiss' κ over %Ln paper(s) all decided: %1": "全员已决定的 %Ln 篇文献的 Fleiss κ：%1",
    "No agreement figures yet: they need two members' decisions on the same papers (readable once the owner "
    "unblinds).": "暂无一致性数据：需要两位成员对相同文献的决定（所有者解除盲审后可见）。",
    "Conflicts: %1 · on the maybe list: %2 · agreed: %3 · awaiting a second decision: %4":
        "冲突：%1 篇 · 待定：%2 篇 · 一致：%3 篇 · 等待第二位成员决定：%4 篇",
    "Conflicts": "冲突",
    "The project's papers whose decisions conflict (include against exclude), not resolved yet":
        "项目中决定相冲突（纳入对排除）且尚未裁决的文献",
    "resolved by %1: %2": "由 %1 裁决：%2",
    "Decisions on this paper: %1": "各成员对此文献的决定：%1",
    "%1: %2 included, %3 excluded, %4 maybe": "%1：纳入 %2 篇，排除 %3 篇，待定 %4 篇",
    # issue 27 (h-resolve): Resolve… in the window, PRISMA counts per member and for the project
    "PRISMA counts per member and for the project": "每位成员及项目的 PRISMA 计数",
    "On the maybe list": "在待定列表中",
    "Project": "项目",
    "Papers decided": "已作决定的文献",
    "Excluded, by reason beneath": "已排除，下方按理由列出",
    "The project's decisions after resolution": "裁决后的项目决定",
    "Awaiting": "待决",
    "A member: papers without their decision. The project: papers awaiting a second decision or a resolution":
        "成员：尚未作决定的文献。项目：等待第二位成员决定或裁决的文献",
    "(no reason given)": "（未给出理由）",
    "(reasons differ)": "（理由不一）",
    "Resolve…": "裁决…",
    "Decide this conflicting paper for the project (key V); the reviewers' decisions stay":
        "为项目裁决这篇有冲突的文献（V 键）；审阅者的决定保持不变",
    "Blind: the counts are your own; the others' and the project's show once the owner unblinds.":
        "盲审中：这里只有你自己的计数；其他成员和项目的计数在所有者解除盲审后显示。",
    "Resolve the conflict": "裁决冲突",
    "Resolved by %1 as %2: choosing again changes it.": "已由 %1 裁决为“%2”：再次选择将更改裁决。",
    "The project's decision on this paper (the reviewers' decisions stay):":
        "项目对此文献的决定（审阅者的决定保持不变）：",
    "&Include": "纳入(&I)",
    "&Exclude": "排除(&E)",
    "&Maybe": "待定(&M)",
    "Exclusion reason": "排除理由",
    "&Reason:": "理由(&R)：",
    "Resolve": "裁决",
    "include": "纳入",
    "exclude": "排除",
    "Resolving on the server…": "正在服务器上裁决…",
    "The project's server is unreachable: %1": "无法连接项目的服务器：%1",
    "Resolved %1 as %2": "已将 %1 裁决为“%2”",
    "Nothing was resolved; try again when the server is reachable.": "未作任何裁决；请在服务器可连接时重试。",
    "Nothing was resolved.": "未作任何裁决。",
    "Resolve is for a shared project's owner or resolvers, once it is unblinded, on a paper in conflict":
        "裁决仅限共享项目的所有者或裁决者，且须在解除盲审后、针对有冲突的文献进行",
    "resolve a shared project's conflict (its owner or a resolver)": "裁决共享项目中的冲突（所有者或裁决者）",
    # issue 27: shared tags and notes in a project (desktop/docks/shared_notes.py)
    "Tags and notes other members shared on this paper:": "其他成员在此文献上共享的标签和笔记：",
    "As each member wrote them (notes as their Markdown source). A project shares tags and notes only when its "
    "owner turns that on, and they are readable once the owner unblinds it.":
        "按各成员所写原样显示（笔记为 Markdown 源文本）。只有项目所有者开启共享时，项目才共享标签和笔记；"
        "所有者解除盲审后方可查看。",
    "%1 (project “%2”)": "%1（项目“%2”）",
    "Tags: %1": "标签：%1",
    "Note:": "笔记：",
    # new-user trial fixes (h-fwin): the import summary built in the window (desktop/window/import_summary.py)
    "%Ln new": "新增 %Ln 篇",
    "%Ln updated": "更新 %Ln 篇",
    "%Ln unchanged": "未变 %Ln 篇",
    "%Ln duplicate(s) in the file": "文件内重复 %Ln 条",
    "%Ln skipped": "跳过 %Ln 条",
    "%Ln merged field by field": "逐字段合并 %Ln 篇",
    "%Ln shared id(s) on different papers kept apart": "%Ln 个标识符出现在不同文献上，已分开保留",
    "%Ln grouped with their other versions": "%Ln 篇已与其其他版本归为一组",
    ", ": "，",
    "%1; annotations from the files: %2": "%1；来自文件的标注：%2",
    "%Ln rating(s)": "评分 %Ln 个",
    "%Ln read mark(s)": "已读标记 %Ln 个",
    "%Ln note(s)": "笔记 %Ln 条",
    "%Ln title(s)": "标题 %Ln 个",
    "%Ln screening decision(s)": "筛选决定 %Ln 个",
    "tags on %Ln paper(s)": "%Ln 篇文献的标签",
    "%Ln paper kept its own": "%Ln 篇文献保留了自己的标注",
    "%Ln papers kept their own": "%Ln 篇文献保留了自己的标注",
    "… %1 more": "… 另有 %1 篇",
    "line %1: %2": "第 %1 行：%2",
    "merged: %1": "已合并：%1",
    "kept apart: %1": "分开保留：%1",
    "versions: %1": "版本：%1",
    # Qt 6's file dialog strings qtbase_zh_CN.qm lacks (desktop/common/i18n.py QT_GAPS, context QFileDialog)
    "&Look in:": "查找范围(&L)：",
    "Files of &type:": "文件类型(&T)：",
}
