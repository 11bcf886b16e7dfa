"""The sync server's shared screening projects (issue 27): tables, row-level security and the few functions the
policies need. Server schema migration 1 → 2 (db.sync.server.MIGRATIONS[1]), then 2 → 3, 3 → 4 and 4 → 5 (the
members' shared tags and notes, `margin_project_annotations`: PROJECT_MIGRATION_5 below); run by whoever migrates
the server (its owner, normally the server's administrator), in one transaction.

Who may do what is decided by PostgreSQL, not by Margin: every member connects as their own PostgreSQL role
(`current_user`), the tables are granted to PUBLIC (but the decisions: see migration 4 below) and every table
has ROW LEVEL SECURITY enabled; since schema 4 they belong to the NOLOGIN role margin_owner:

- `margin_projects`: one row per project (owner role, blind flag — true by default —, whether tags and notes are
  shared, the criteria text, the reason list as a JSON array). Members read their project's row; only the owner
  inserts, updates (unblinds, edits criteria) or deletes it.
- `margin_project_members`: (project, member role, 'owner' | 'reviewer' | 'resolver', invited_at, joined_at,
  removed_at). Only the owner adds or removes; a member joins or leaves through `margin_project_join/leave`
  (security definer: they set only their own row's time stamps). A removed member (removed_at set) reads nothing
  of the project from then on; their past decisions stay.
- `margin_project_papers`: the project's papers (Margin's paper id, title); members read, the owner adds.
- `margin_project_decisions`: one row per (project, paper, reviewer): include | exclude | maybe, reason,
  decided_at, hlc (db.sync.clock stamp). A member inserts, updates and deletes only rows whose reviewer is their
  own role; reads others' rows only while the project is unblinded.
- `margin_project_resolutions`: one row per (project, paper): the owner's or a resolver's final decision, reason
  and time; the reviewers' decisions are kept as they were. Readable by members once unblinded; written by the
  owner or a resolver once unblinded.

The policies' helpers `margin_project_active/owned/resolver(project, role)` and `margin_project_unblinded(project)`
are security definer (they read the membership table under the policies that call them, which would otherwise
recurse); they answer booleans only, and only about a role the logged-in user may act as (so no one probes other
people's memberships). `margin_project_join/leave(project)` stamp the caller's own membership row, found by
session_user (the owner cannot leave). The server's administrator (a superuser, or the CREATEROLE role that
migrated) can become margin_owner and sees everything; such a role may not take part in a project. Sources:
PostgreSQL manual, "Row Security Policies" (ddl-rowsecurity), CREATE POLICY, and "Writing SECURITY DEFINER
Functions Safely" (CREATE FUNCTION).
"""

from __future__ import annotations

DECISIONS = ("include", "exclude", "maybe")

_TABLES = ("margin_projects", "margin_project_members", "margin_project_papers", "margin_project_decisions",
           "margin_project_resolutions")

_DEFINER = "LANGUAGE sql STABLE SECURITY DEFINER SET search_path = pg_catalog, public"
# `who` is the logged-in role or one it may SET ROLE to (a role that does not exist answers false, not an error)
_MINE = ("EXISTS (SELECT 1 FROM pg_roles r WHERE r.rolname = who"
         " AND pg_has_role(session_user, r.oid, 'MEMBER'))")

PROJECT_MIGRATION: list[str] = [
    "CREATE TABLE margin_projects (id bigserial PRIMARY KEY, name text NOT NULL UNIQUE,"
    " owner text NOT NULL DEFAULT current_user, blind boolean NOT NULL DEFAULT true,"
    " share_tags boolean NOT NULL DEFAULT false, share_notes boolean NOT NULL DEFAULT false,"
    " criteria text NOT NULL DEFAULT '', reasons jsonb NOT NULL DEFAULT '[]',"
    " created_at timestamptz NOT NULL DEFAULT now())",
    "CREATE TABLE margin_project_members (project bigint NOT NULL REFERENCES margin_projects ON DELETE CASCADE,"
    " member text NOT NULL, role text NOT NULL DEFAULT 'reviewer' CHECK (role IN ('owner', 'reviewer', 'resolver')),"
    " invited_at timestamptz NOT NULL DEFAULT now(), joined_at timestamptz, removed_at timestamptz,"
    " PRIMARY KEY (project, member))",
    "CREATE TABLE margin_project_papers (project bigint NOT NULL REFERENCES margin_projects ON DELETE CASCADE,"
    " paper text NOT NULL, title text NOT NULL DEFAULT '', added_by text NOT NULL DEFAULT current_user,"
    " PRIMARY KEY (project, paper))",
    "CREATE TABLE margin_project_decisions (project bigint NOT NULL, paper text NOT NULL,"
    " reviewer text NOT NULL DEFAULT current_user,"
    " decision text NOT NULL CHECK (decision IN ('include', 'exclude', 'maybe')),"
    " reason text NOT NULL DEFAULT '', decided_at timestamptz NOT NULL DEFAULT now(), hlc text NOT NULL DEFAULT '',"
    " PRIMARY KEY (project, paper, reviewer),"
    " FOREIGN KEY (project, paper) REFERENCES margin_project_papers ON DELETE CASCADE)",
    "CREATE TABLE margin_project_resolutions (project bigint NOT NULL, paper text NOT NULL,"
    " resolver text NOT NULL DEFAULT current_user,"
    " decision text NOT NULL CHECK (decision IN ('include', 'exclude', 'maybe')),"
    " reason text NOT NULL DEFAULT '', resolved_at timestamptz NOT NULL DEFAULT now(),"
    " PRIMARY KEY (project, paper), FOREIGN KEY (project, paper) REFERENCES margin_project_papers ON DELETE CASCADE)",
    # the policies' questions (security definer: the membership table's own policy would call them again). They
    # answer only for a role the logged-in user may act as (`_MINE`), so no one can ask about other people's
    # memberships or projects
    "CREATE FUNCTION margin_project_active(p bigint, who text) RETURNS boolean " + _DEFINER + " AS $$"
    " SELECT " + _MINE + " AND EXISTS (SELECT 1 FROM margin_project_members m WHERE m.project = p"
    " AND m.member = who AND m.removed_at IS NULL) $$",
    "CREATE FUNCTION margin_project_owned(p bigint, who text) RETURNS boolean " + _DEFINER + " AS $$"
    " SELECT " + _MINE + " AND EXISTS (SELECT 1 FROM margin_projects j WHERE j.id = p AND j.owner = who) $$",
    "CREATE FUNCTION margin_project_unblinded(p bigint) RETURNS boolean " + _DEFINER + " AS $$"
    " SELECT EXISTS (SELECT 1 FROM margin_projects j JOIN margin_project_members m ON m.project = j.id"
    " WHERE j.id = p AND NOT j.blind AND m.removed_at IS NULL"
    " AND pg_has_role(session_user, (SELECT oid FROM pg_roles WHERE rolname = m.member), 'MEMBER')) $$",
    "CREATE FUNCTION margin_project_resolver(p bigint, who text) RETURNS boolean " + _DEFINER + " AS $$"
    " SELECT " + _MINE + " AND EXISTS (SELECT 1 FROM margin_project_members m WHERE m.project = p"
    " AND m.member = who AND m.removed_at IS NULL AND m.role IN ('owner', 'resolver')) $$",
    # join and leave: a member stamps only their own membership row. A security definer function sees its owner
    # as current_user, so these take session_user: the role the member logged in as, which only a superuser can
    # change (SET SESSION AUTHORIZATION), unlike current_user (SET ROLE)
    "CREATE FUNCTION margin_project_join(p bigint) RETURNS boolean LANGUAGE sql VOLATILE SECURITY DEFINER"
    " SET search_path = pg_catalog, public AS $$"
    " WITH done AS (UPDATE margin_project_members SET joined_at = now() WHERE project = p"
    " AND member = session_user::text AND removed_at IS NULL RETURNING 1) SELECT EXISTS (SELECT 1 FROM done) $$",
    "CREATE FUNCTION margin_project_leave(p bigint) RETURNS boolean LANGUAGE sql VOLATILE SECURITY DEFINER"
    " SET search_path = pg_catalog, public AS $$"
    " WITH done AS (UPDATE margin_project_members SET removed_at = now() WHERE project = p"
    " AND member = session_user::text AND removed_at IS NULL AND role <> 'owner' RETURNING 1)"
    " SELECT EXISTS (SELECT 1 FROM done) $$",
    # projects
    "CREATE POLICY read ON margin_projects FOR SELECT USING (owner = current_user"
    " OR margin_project_active(id, current_user::text))",
    "CREATE POLICY make ON margin_projects FOR INSERT WITH CHECK (owner = current_user)",
    "CREATE POLICY edit ON margin_projects FOR UPDATE USING (owner = current_user) WITH CHECK (owner = current_user)",
    "CREATE POLICY drop ON margin_projects FOR DELETE USING (owner = current_user)",
    # members: the owner manages; an active member sees who else is in the project
    "CREATE POLICY read ON margin_project_members FOR SELECT USING (margin_project_owned(project, current_user::text)"
    " OR margin_project_active(project, current_user::text))",
    "CREATE POLICY manage ON margin_project_members FOR ALL USING (margin_project_owned(project, current_user::text))"
    " WITH CHECK (margin_project_owned(project, current_user::text))",
    # papers
    "CREATE POLICY read ON margin_project_papers FOR SELECT USING (margin_project_active(project, current_user::text))",
    "CREATE POLICY manage ON margin_project_papers FOR ALL USING (margin_project_owned(project, current_user::text))"
    " WITH CHECK (margin_project_owned(project, current_user::text))",
    # decisions: own rows always (while a member), others' only once unblinded
    "CREATE POLICY read ON margin_project_decisions FOR SELECT USING ("
    "margin_project_active(project, current_user::text)"
    " AND (reviewer = current_user OR margin_project_unblinded(project)))",
    "CREATE POLICY write ON margin_project_decisions FOR INSERT WITH CHECK (reviewer = current_user"
    " AND margin_project_active(project, current_user::text))",
    "CREATE POLICY edit ON margin_project_decisions FOR UPDATE USING (reviewer = current_user"
    " AND margin_project_active(project, current_user::text)) WITH CHECK (reviewer = current_user"
    " AND margin_project_active(project, current_user::text))",
    "CREATE POLICY drop ON margin_project_decisions FOR DELETE USING (reviewer = current_user"
    " AND margin_project_active(project, current_user::text))",
    # resolutions
    "CREATE POLICY read ON margin_project_resolutions FOR SELECT USING ("
    "margin_project_active(project, current_user::text) AND margin_project_unblinded(project))",
    "CREATE POLICY resolve ON margin_project_resolutions FOR ALL USING (resolver = current_user"
    " AND margin_project_resolver(project, current_user::text) AND margin_project_unblinded(project))"
    " WITH CHECK (resolver = current_user AND margin_project_resolver(project, current_user::text)"
    " AND margin_project_unblinded(project))",
]
for _table in _TABLES:
    PROJECT_MIGRATION += [f"ALTER TABLE {_table} ENABLE ROW LEVEL SECURITY",
                          f"ALTER TABLE {_table} FORCE ROW LEVEL SECURITY",
                          f"REVOKE ALL ON {_table} FROM PUBLIC",
                          f"GRANT SELECT, INSERT, UPDATE, DELETE ON {_table} TO PUBLIC"]
PROJECT_MIGRATION += ["GRANT USAGE ON SEQUENCE margin_projects_id_seq TO PUBLIC",
                      "GRANT SELECT ON margin_schema TO PUBLIC"]  # every member's Margin checks the version

# 2 → 3: each project paper's bibliographic record (db.library.syncing.paper_states' "paper" shape, as JSON text),
# so that a member's library receives the paper itself; and the owner's choice to let every member's
# recommendations learn from every member's decisions (`crowd`)
PROJECT_MIGRATION_3: list[str] = [
    "ALTER TABLE margin_project_papers ADD COLUMN record text NOT NULL DEFAULT ''",
    "ALTER TABLE margin_projects ADD COLUMN crowd boolean NOT NULL DEFAULT false",
]

# 3 → 4 (issue 27's trial): safe on a server where no role is a superuser. The tables and the helpers belong to
# `margin_owner`, a NOLOGIN role no one logs in as or is made a member of, so no member owns a table (a table's
# owner could switch its row security off) and the security definer helpers read the tables whole (row security is
# enabled but not forced: it binds everyone but the owner). Only a superuser or a role with CREATEROLE — the
# server's administrator — may run it (a table made by a member would be hers); it refuses everyone else in one
# line. A role that can administer margin_owner (superuser, BYPASSRLS, CREATEROLE, or a member of it) can read
# everything, so it may not make or join projects. Blind only goes true → false (a trigger). Decisions are no
# member's to plan on: members read `margin_project_decisions_visible` (a view over a security definer PL/pgSQL
# function, which the planner cannot see into: a member's EXPLAIN, timing and filter counts see only the rows they
# may read) and write through margin_project_decide/withdraw, which stamp the decision with its own time (the
# wall time of its db.sync.clock stamp) instead of its arrival.
OWNER_ROLE = "margin_owner"
SETUP_REFUSAL = ("this server's Margin tables are missing or older than this Margin's and this role may not make "
                 "them: the server's "
                 "administrator (a superuser, or a role with CREATEROLE that is no project member) runs "
                 "margin sync --server \"postgresql://ADMIN@HOST/DB\" once first (README, Screening as a lab, step 1)")
PRIVILEGED_REFUSAL = ("this role administers the server's project tables (superuser, BYPASSRLS, CREATEROLE or "
                      "a member of margin_owner) and could read every blind decision: members use a plain login "
                      "role")

_FUNCTIONS = ("margin_project_active(bigint, text)", "margin_project_owned(bigint, text)",
              "margin_project_unblinded(bigint)", "margin_project_resolver(bigint, text)",
              "margin_project_join(bigint)", "margin_project_leave(bigint)", "margin_project_privileged()",
              "margin_project_blind_once()", "margin_project_decisions_of(text)",
              "margin_project_decide(bigint, text, text[], text[], text[], text[])",
              "margin_project_withdraw(bigint, text, text[])")
_DECISION_COLUMNS = ("project bigint, paper text, reviewer text, decision text, reason text, decided_at timestamptz,"
                     " hlc text")

PROJECT_MIGRATION_4: list[str] = [
    "DO $$ BEGIN IF NOT (SELECT rolsuper OR rolcreaterole FROM pg_roles WHERE rolname = current_user) THEN"
    " RAISE EXCEPTION USING ERRCODE = '42501', MESSAGE = " + "'" + SETUP_REFUSAL.replace("'", "''") + "'; END IF;"
    f" IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = '{OWNER_ROLE}') THEN CREATE ROLE {OWNER_ROLE} NOLOGIN;"
    f" END IF; EXECUTE format('GRANT CREATE, USAGE ON SCHEMA %I TO {OWNER_ROLE}', current_schema()); END $$",
    f"GRANT {OWNER_ROLE} TO current_user",
    # who may not take part: whoever can read everything (session_user: the role logged in)
    "CREATE FUNCTION margin_project_privileged() RETURNS boolean LANGUAGE sql STABLE"
    " SET search_path = pg_catalog AS $$ SELECT r.rolsuper OR r.rolbypassrls OR r.rolcreaterole"
    f" OR pg_has_role(r.oid, '{OWNER_ROLE}', 'MEMBER') FROM pg_roles r WHERE r.rolname = session_user $$",
    "DROP POLICY make ON margin_projects",
    "CREATE POLICY make ON margin_projects FOR INSERT WITH CHECK (owner = current_user"
    " AND NOT margin_project_privileged())",
    "CREATE OR REPLACE FUNCTION margin_project_join(p bigint) RETURNS boolean LANGUAGE sql VOLATILE SECURITY DEFINER"
    " SET search_path = pg_catalog, public AS $$"
    " WITH done AS (UPDATE margin_project_members SET joined_at = now() WHERE project = p"
    " AND member = session_user::text AND removed_at IS NULL AND NOT margin_project_privileged() RETURNING 1)"
    " SELECT EXISTS (SELECT 1 FROM done) $$",
    # blind: true → false only
    "CREATE FUNCTION margin_project_blind_once() RETURNS trigger LANGUAGE plpgsql SET search_path = pg_catalog AS $$"
    " BEGIN IF NEW.blind AND NOT OLD.blind THEN RAISE EXCEPTION USING ERRCODE = '42501',"
    " MESSAGE = 'a project once unblinded cannot be made blind again'; END IF; RETURN NEW; END $$",
    "CREATE TRIGGER blind_once BEFORE UPDATE OF blind ON margin_projects FOR EACH ROW"
    " EXECUTE FUNCTION margin_project_blind_once()",
    # what a member reads of the decisions: every row of their active projects' they may read, computed whole
    # (no member's condition reaches inside), so its cost and its plan say nothing of rows they may not read
    f"CREATE FUNCTION margin_project_decisions_of(who text) RETURNS TABLE ({_DECISION_COLUMNS})"
    " LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path = pg_catalog, public AS $$ BEGIN"
    " IF NOT " + _MINE + " OR margin_project_privileged() THEN RETURN; END IF;"
    " RETURN QUERY SELECT d.project, d.paper, d.reviewer, d.decision, d.reason, d.decided_at, d.hlc"
    " FROM margin_project_decisions d JOIN margin_project_members m ON m.project = d.project AND m.member = who"
    " AND m.removed_at IS NULL JOIN margin_projects j ON j.id = d.project"
    " WHERE d.reviewer = who OR NOT j.blind; END $$",
    "CREATE VIEW margin_project_decisions_visible WITH (security_barrier) AS"
    " SELECT * FROM margin_project_decisions_of(current_user::text)",
    # a member's own decisions, in: the later stamp wins, and a stamp's wall time is when it was decided
    "CREATE FUNCTION margin_project_decide(p bigint, who text, papers text[], decisions text[], reasons text[],"
    " hlcs text[]) RETURNS integer LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = pg_catalog, public"
    " AS $$ DECLARE n integer; BEGIN"
    " IF NOT margin_project_active(p, who) OR margin_project_privileged() THEN RAISE EXCEPTION USING"
    " ERRCODE = '42501', MESSAGE = 'not an active member of this project'; END IF;"
    " INSERT INTO margin_project_decisions AS d (project, paper, reviewer, decision, reason, hlc, decided_at)"
    " SELECT p, b.paper, who, b.decision, b.reason, b.hlc, CASE WHEN b.hlc ~ '^[0-9]{1,15}[.]'"
    " THEN to_timestamp(split_part(b.hlc, '.', 1)::bigint / 1000.0) ELSE now() END"
    " FROM unnest(papers, decisions, reasons, hlcs) AS b (paper, decision, reason, hlc)"
    " ON CONFLICT (project, paper, reviewer) DO UPDATE SET decision = excluded.decision, reason = excluded.reason,"
    " hlc = excluded.hlc, decided_at = excluded.decided_at"
    " WHERE excluded.hlc = '' OR d.hlc COLLATE \"C\" <= excluded.hlc COLLATE \"C\";"
    " GET DIAGNOSTICS n = ROW_COUNT; RETURN n; END $$",
    "CREATE FUNCTION margin_project_withdraw(p bigint, who text, papers text[]) RETURNS integer LANGUAGE plpgsql"
    " VOLATILE SECURITY DEFINER SET search_path = pg_catalog, public AS $$ DECLARE n integer; BEGIN"
    " IF NOT margin_project_active(p, who) OR margin_project_privileged() THEN RAISE EXCEPTION USING"
    " ERRCODE = '42501', MESSAGE = 'not an active member of this project'; END IF;"
    " DELETE FROM margin_project_decisions WHERE project = p AND reviewer = who AND paper = ANY(papers);"
    " GET DIAGNOSTICS n = ROW_COUNT; RETURN n; END $$",
    "REVOKE ALL ON margin_project_decisions FROM PUBLIC",
    "GRANT SELECT ON margin_project_decisions_visible TO PUBLIC",
]
for _table in _TABLES:
    PROJECT_MIGRATION_4 += [f"ALTER TABLE {_table} OWNER TO {OWNER_ROLE}",
                            f"ALTER TABLE {_table} NO FORCE ROW LEVEL SECURITY"]
PROJECT_MIGRATION_4 += [f"ALTER FUNCTION {function} OWNER TO {OWNER_ROLE}" for function in _FUNCTIONS]
PROJECT_MIGRATION_4 += [f"ALTER VIEW margin_project_decisions_visible OWNER TO {OWNER_ROLE}",
                        f"REVOKE {OWNER_ROLE} FROM current_user"]

# 4 → 5 (issue 27): the tags and notes a member shares with the project, only where the owner turned sharing on
# (`share_tags`, `share_notes` of margin_projects). One row per (project, paper, reviewer): the member's tag names
# (a JSON array; NULL: never sent) and note (its Markdown source as plain text; NULL: never sent), each with when
# the server received it. Built as the decisions are: margin_owner owns the table, row security is enabled and
# forced (a policy lets only margin_owner, i.e. the functions below, through), and members have no privilege on
# it. They write through margin_project_annotate, which takes only their own reviewer id and refuses tags while
# share_tags is off and notes while share_notes is off (a client's bug cannot leak them); they read
# `margin_project_annotations_visible`, a view over the security definer margin_project_annotations_of: their
# own rows whole, another member's tags only while the project is unblinded and shares tags, notes likewise (so
# blind hides notes, as Rayyan's blind mode does, and turning a flag off hides what was shared); a removed member
# reads nothing. Only the administrator runs it (the same refusal as 3 → 4).
_ANNOTATION_COLUMNS = "project bigint, paper text, reviewer text, tags jsonb, tags_at timestamptz, note text," \
                      " note_at timestamptz"

PROJECT_MIGRATION_5: list[str] = [
    PROJECT_MIGRATION_4[0],  # the administrator only; margin_owner exists
    f"GRANT {OWNER_ROLE} TO current_user",
    "CREATE TABLE margin_project_annotations (project bigint NOT NULL, paper text NOT NULL, reviewer text NOT NULL,"
    " tags jsonb CHECK (tags IS NULL OR jsonb_typeof(tags) = 'array'), tags_at timestamptz,"
    " note text, note_at timestamptz, PRIMARY KEY (project, paper, reviewer),"
    " FOREIGN KEY (project, paper) REFERENCES margin_project_papers ON DELETE CASCADE)",
    f"ALTER TABLE margin_project_annotations OWNER TO {OWNER_ROLE}",
    "ALTER TABLE margin_project_annotations ENABLE ROW LEVEL SECURITY",
    "ALTER TABLE margin_project_annotations FORCE ROW LEVEL SECURITY",
    f"CREATE POLICY functions ON margin_project_annotations FOR ALL TO {OWNER_ROLE} USING (true) WITH CHECK (true)",
    "REVOKE ALL ON margin_project_annotations FROM PUBLIC",
    # what a member reads: computed whole inside (no member's condition reaches in), each part only where it may
    f"CREATE FUNCTION margin_project_annotations_of(who text) RETURNS TABLE ({_ANNOTATION_COLUMNS})"
    " LANGUAGE plpgsql STABLE SECURITY DEFINER SET search_path = pg_catalog, public AS $$ BEGIN"
    " IF NOT " + _MINE + " OR margin_project_privileged() THEN RETURN; END IF;"
    " RETURN QUERY SELECT a.project, a.paper, a.reviewer,"
    " CASE WHEN a.reviewer = who OR j.share_tags THEN a.tags END,"
    " CASE WHEN a.reviewer = who OR j.share_tags THEN a.tags_at END,"
    " CASE WHEN a.reviewer = who OR j.share_notes THEN a.note END,"
    " CASE WHEN a.reviewer = who OR j.share_notes THEN a.note_at END"
    " FROM margin_project_annotations a JOIN margin_project_members m ON m.project = a.project AND m.member = who"
    " AND m.removed_at IS NULL JOIN margin_projects j ON j.id = a.project"
    " WHERE a.reviewer = who OR (NOT j.blind AND ((j.share_tags AND a.tags IS NOT NULL AND a.tags <> '[]')"
    " OR (j.share_notes AND a.note IS NOT NULL AND a.note <> ''))); END $$",
    "CREATE VIEW margin_project_annotations_visible WITH (security_barrier) AS"
    " SELECT * FROM margin_project_annotations_of(current_user::text)",
    # a member's own tags (JSON arrays of names) and notes, in; NULL leaves that part as the server has it
    "CREATE FUNCTION margin_project_annotate(p bigint, who text, papers text[], tags text[], notes text[])"
    " RETURNS integer LANGUAGE plpgsql VOLATILE SECURITY DEFINER SET search_path = pg_catalog, public"
    " AS $$ DECLARE n integer; shares_tags boolean; shares_notes boolean; BEGIN"
    " IF NOT margin_project_active(p, who) OR margin_project_privileged() THEN RAISE EXCEPTION USING"
    " ERRCODE = '42501', MESSAGE = 'not an active member of this project'; END IF;"
    " SELECT j.share_tags, j.share_notes INTO shares_tags, shares_notes FROM margin_projects j WHERE j.id = p;"
    " IF NOT shares_tags AND EXISTS (SELECT 1 FROM unnest(tags) t WHERE t IS NOT NULL) THEN RAISE EXCEPTION USING"
    " ERRCODE = '42501', MESSAGE = 'this project does not share tags (its owner turned that off)'; END IF;"
    " IF NOT shares_notes AND EXISTS (SELECT 1 FROM unnest(notes) t WHERE t IS NOT NULL) THEN RAISE EXCEPTION USING"
    " ERRCODE = '42501', MESSAGE = 'this project does not share notes (its owner turned that off)'; END IF;"
    " INSERT INTO margin_project_annotations AS a (project, paper, reviewer, tags, tags_at, note, note_at)"
    " SELECT p, b.paper, who, b.tag::jsonb, CASE WHEN b.tag IS NOT NULL THEN now() END, b.note,"
    " CASE WHEN b.note IS NOT NULL THEN now() END FROM unnest(papers, tags, notes) AS b (paper, tag, note)"
    " ON CONFLICT (project, paper, reviewer) DO UPDATE SET tags = COALESCE(excluded.tags, a.tags),"
    " tags_at = COALESCE(excluded.tags_at, a.tags_at), note = COALESCE(excluded.note, a.note),"
    " note_at = COALESCE(excluded.note_at, a.note_at);"
    " GET DIAGNOSTICS n = ROW_COUNT; RETURN n; END $$",
    "GRANT SELECT ON margin_project_annotations_visible TO PUBLIC",
]
PROJECT_MIGRATION_5 += [f"ALTER FUNCTION {function} OWNER TO {OWNER_ROLE}" for function in (
    "margin_project_annotations_of(text)", "margin_project_annotate(bigint, text, text[], text[], text[])")]
PROJECT_MIGRATION_5 += [f"ALTER VIEW margin_project_annotations_visible OWNER TO {OWNER_ROLE}",
                        f"REVOKE {OWNER_ROLE} FROM current_user"]
