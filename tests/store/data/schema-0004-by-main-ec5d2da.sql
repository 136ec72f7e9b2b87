-- The SQLite database of fracas at main ec5d2da (schema 0004), dumped with sqlite3 .dump;
-- tests/store/data/README.md says how it was made.
PRAGMA foreign_keys=OFF;
BEGIN TRANSACTION;
CREATE TABLE alembic_version (
	version_num VARCHAR(32) NOT NULL, 
	CONSTRAINT alembic_version_pkc PRIMARY KEY (version_num)
);
INSERT INTO alembic_version VALUES('0004');
CREATE TABLE campaigns (
	id INTEGER NOT NULL, 
	name VARCHAR(200) NOT NULL, 
	created VARCHAR(40) NOT NULL, title VARCHAR(200), 
	PRIMARY KEY (id), 
	UNIQUE (name)
);
INSERT INTO campaigns VALUES(1,'friday','2026-12-07T14:15:25+00:00',NULL);
CREATE TABLE conflicts (
	id VARCHAR(40) NOT NULL, 
	campaign_id INTEGER NOT NULL, 
	ruleset VARCHAR(60) NOT NULL, 
	title VARCHAR(200) NOT NULL, 
	seed VARCHAR(200) NOT NULL, 
	version INTEGER NOT NULL, 
	created VARCHAR(40) NOT NULL, 
	updated VARCHAR(40) NOT NULL, 
	PRIMARY KEY (id), 
	FOREIGN KEY(campaign_id) REFERENCES campaigns (id)
);
INSERT INTO conflicts VALUES('fb8f82a1',1,'etherscope','Agents in the domain','e80044cae36b0932a2ff7ce10b8e3795c14c1614b8c10ea89fb3e37ab0cbc480',19,'2026-12-07T14:15:25+00:00','2026-12-07T14:15:32+00:00');
CREATE TABLE records (
	conflict_id VARCHAR(40) NOT NULL, 
	version INTEGER NOT NULL, 
	command TEXT NOT NULL, 
	author VARCHAR(80) NOT NULL, 
	time VARCHAR(40) NOT NULL, 
	"key" VARCHAR(200), 
	data TEXT NOT NULL, 
	CONSTRAINT pk_records PRIMARY KEY (conflict_id, version), 
	FOREIGN KEY(conflict_id) REFERENCES conflicts (id)
);
INSERT INTO records VALUES('fb8f82a1',1,'create','gm','2026-12-07T14:15:25+00:00',NULL,'{"version":1,"command":"create","events":[{"type":"conflict_created","data":{"ruleset":"etherscope","title":"Agents in the domain","scene":"","round_limit":null,"settings":{"nature":"physical","reality":"ether","time_scale":"fast","range_scaling":"battlefield","die_size":6,"threshold":5,"default_pool":2,"default_difficulty":1,"extra_cost":1,"push_two_cost":1,"push_damage_per_extra":1,"attack_damage":1,"off_nature_damage":1,"recover_amount":1,"min_gap":5,"zoom_rounds":5,"awareness_skill":"awareness","actions":{"push":{"skill":"","difficulty":null},"attack":{"skill":"","difficulty":null},"move":{"skill":"","difficulty":null},"hide":{"skill":"","difficulty":null},"search":{"skill":"","difficulty":null},"recover":{"skill":"","difficulty":null}},"ranges":{"default":1,"pairs":[]},"groups":{"agents":["agent1","agent2"]},"lurking":{"agent2":["kim"]},"gm_only_settings":["groups","lurking","ranges"]},"sides":["hackers","agents"],"participants":[{"id":"kim","name":"Kim","kind":"pc","side":"hackers","player":"kate","stats":{"physical":8,"ether":11,"society":6,"awareness":3,"skills":{"hack":4}},"gm_only":[]},{"id":"agent1","name":"Agent Grey","kind":"npc","side":"agents","player":null,"stats":{"physical":10,"ether":7,"society":4,"awareness":2,"pool":2},"gm_only":[]},{"id":"agent2","name":"Agent Black","kind":"npc","side":"agents","player":null,"stats":{"physical":10,"ether":6,"society":4,"awareness":2,"pool":2},"gm_only":[]}]}}],"author":"gm","time":"2026-12-07T14:15:25+00:00","key":null}');
INSERT INTO records VALUES('fb8f82a1',2,'kim: awareness dice=6,5,5','gm','2026-12-07T14:15:25+00:00',NULL,'{"version":2,"command":"kim: awareness dice=6,5,5","events":[{"type":"awareness_rolled","data":{"participant":"kim","pool":3,"skill":"awareness","roll":{"expression":"3d6>=5","dice":[6,5,5],"total":3},"text":"3d6>=5 → [**6**, **5**, **5**] = 3","successes":3},"actor":"kim"}],"author":"gm","time":"2026-12-07T14:15:25+00:00","key":null}');
INSERT INTO records VALUES('fb8f82a1',3,'agent1: awareness dice=5,1','gm','2026-12-07T14:15:25+00:00',NULL,'{"version":3,"command":"agent1: awareness dice=5,1","events":[{"type":"awareness_rolled","data":{"participant":"agent1","pool":2,"skill":"awareness","roll":{"expression":"2d6>=5","dice":[5,1],"total":1},"text":"2d6>=5 → [**5**, 1] = 1","successes":1},"actor":"agent1"}],"author":"gm","time":"2026-12-07T14:15:25+00:00","key":null}');
INSERT INTO records VALUES('fb8f82a1',4,'agent2: awareness dice=1,1','gm','2026-12-07T14:15:25+00:00',NULL,'{"version":4,"command":"agent2: awareness dice=1,1","events":[{"type":"awareness_rolled","data":{"participant":"agent2","pool":2,"skill":"awareness","roll":{"expression":"2d6>=5","dice":[1,1],"total":0},"text":"2d6>=5 → [1, 1] = 0","successes":0},"actor":"agent2"}],"author":"gm","time":"2026-12-07T14:15:25+00:00","key":null}');
INSERT INTO records VALUES('fb8f82a1',5,'agent2: ambush kim dice=6,6 counter=kim:1,2,3','gm','2026-12-07T14:15:25+00:00',NULL,'{"version":5,"command":"agent2: ambush kim dice=6,6 counter=kim:1,2,3","events":[{"type":"ambush_resolved","data":{"ambusher":"agent2","roll":{"pool":2,"skill":"","roll":{"expression":"2d6>=5","dice":[6,6],"total":2},"text":"2d6>=5 → [**6**, **6**] = 2","successes":2},"targets":[{"target":"kim","pool":3,"skill":"awareness","roll":{"expression":"3d6>=5","dice":[1,2,3],"total":0},"text":"3d6>=5 → [1, 2, 3] = 0","successes":0,"ambushed":true}]},"actor":"agent2"}],"author":"gm","time":"2026-12-07T14:15:25+00:00","key":null}');
INSERT INTO records VALUES('fb8f82a1',6,'set-range kim agents distant','gm','2026-12-07T14:15:25+00:00',NULL,'{"version":6,"command":"set-range kim agents distant","events":[{"type":"range_set","data":{"a":"kim","b":"agent1","band":2,"was":1,"by":"gm"}},{"type":"range_set","data":{"a":"kim","b":"agent2","band":2,"was":1,"by":"gm"}}],"author":"gm","time":"2026-12-07T14:15:25+00:00","key":null}');
INSERT INTO records VALUES('fb8f82a1',7,'moves','gm','2026-12-07T14:15:25+00:00',NULL,'{"version":7,"command":"moves","events":[{"type":"awareness_order","data":{"order":["kim","agent1","agent2"]}},{"type":"mover_started","data":{"participant":"kim","against":["agent1","agent2"]}}],"author":"gm","time":"2026-12-07T14:15:25+00:00","key":null}');
INSERT INTO records VALUES('fb8f82a1',8,'kim: step agents toward','gm','2026-12-07T14:15:25+00:00',NULL,'{"version":8,"command":"kim: step agents toward","events":[{"type":"range_changed","data":{"a":"kim","b":"agent1","band":1,"was":2,"by":"kim","why":"awareness move"},"actor":"kim"}],"author":"gm","time":"2026-12-07T14:15:25+00:00","key":null}');
INSERT INTO records VALUES('fb8f82a1',9,'kim: done','gm','2026-12-07T14:15:25+00:00',NULL,'{"version":9,"command":"kim: done","events":[{"type":"mover_done","data":{"participant":"kim"},"actor":"kim"},{"type":"mover_started","data":{"participant":"agent1","against":["agent2"]}}],"author":"gm","time":"2026-12-07T14:15:25+00:00","key":null}');
INSERT INTO records VALUES('fb8f82a1',10,'agent1: done','gm','2026-12-07T14:15:25+00:00',NULL,'{"version":10,"command":"agent1: done","events":[{"type":"mover_done","data":{"participant":"agent1"},"actor":"agent1"},{"type":"awareness_moves_done","data":{}}],"author":"gm","time":"2026-12-07T14:15:25+00:00","key":null}');
INSERT INTO records VALUES('fb8f82a1',11,'round','gm','2026-12-07T14:15:25+00:00',NULL,'{"version":11,"command":"round","events":[{"type":"conflict_started","data":{}},{"type":"round_started","data":{"round":1,"base":{"kim":11,"agent1":7,"agent2":6},"condenser":"ether"}}],"author":"gm","time":"2026-12-07T14:15:25+00:00","key":null}');
INSERT INTO records VALUES('fb8f82a1',12,'kim: declare 9,2','gm','2026-12-07T14:15:25+00:00',NULL,'{"version":12,"command":"kim: declare 9,2","events":[{"type":"initiative_declared","data":{"participant":"kim","scores":[9,2],"base":11},"actor":"kim"}],"author":"gm","time":"2026-12-07T14:15:25+00:00","key":null}');
INSERT INTO records VALUES('fb8f82a1',13,'agent1: declare 7','gm','2026-12-07T14:15:25+00:00',NULL,'{"version":13,"command":"agent1: declare 7","events":[{"type":"initiative_declared","data":{"participant":"agent1","scores":[7],"base":7},"actor":"agent1"}],"author":"gm","time":"2026-12-07T14:15:25+00:00","key":null}');
INSERT INTO records VALUES('fb8f82a1',14,'countdown','gm','2026-12-07T14:15:25+00:00',NULL,'{"version":14,"command":"countdown","events":[{"type":"initiative_declared","data":{"participant":"agent2","scores":[6],"base":6,"default":true},"actor":"agent2"},{"type":"countdown_started","data":{"order":[["kim",9],["agent1",7],["agent2",6],["kim",2]]}},{"type":"turn_started","data":{"participant":"kim","score":9}}],"author":"gm","time":"2026-12-07T14:15:25+00:00","key":null}');
INSERT INTO records VALUES('fb8f82a1',15,'kim: attack agent1 dice=6,6,5,1 skill=hack say="Kim rewrites the agent''s code" effect="The agent''s avatar flickers"','gm','2026-12-07T14:15:25+00:00',NULL,'{"version":15,"command":"kim: attack agent1 dice=6,6,5,1 skill=hack say=\"Kim rewrites the agent''s code\" effect=\"The agent''s avatar flickers\"","events":[{"type":"action_resolved","data":{"action":"attack","actor":"kim","targets":["agent1"],"difficulty":1,"pool":4,"skill":"hack","roll":{"expression":"4d6>=5","dice":[6,6,5,1],"total":3},"text":"4d6>=5 → [**6**, **6**, **5**, 1] = 3","successes":3,"success":true,"extra":2,"nature":"physical","say":"Kim rewrites the agent''s code","effect":"The agent''s avatar flickers","spent":{"damage":2},"unspent":0},"actor":"kim"},{"type":"damage","data":{"participant":"agent1","amount":3,"condenser":"ether","left":4,"reason":"attack","source":"kim"}},{"type":"turn_ended","data":{"participant":"kim"}},{"type":"turn_started","data":{"participant":"agent1","score":7}}],"author":"gm","time":"2026-12-07T14:15:25+00:00","key":null}');
INSERT INTO records VALUES('fb8f82a1',16,'agent1: push kim dice=5,5 nature=mental say=''The agent hurls a data spike'' damage=1','gm','2026-12-07T14:15:25+00:00',NULL,'{"version":16,"command":"agent1: push kim dice=5,5 nature=mental say=''The agent hurls a data spike'' damage=1","events":[{"type":"action_resolved","data":{"action":"push","actor":"agent1","targets":["kim"],"difficulty":1,"pool":2,"skill":"","roll":{"expression":"2d6>=5","dice":[5,5],"total":2},"text":"2d6>=5 → [**5**, **5**] = 2","successes":2,"success":true,"extra":1,"nature":"mental","say":"The agent hurls a data spike","spent":{"damage":1},"unspent":0},"actor":"agent1"},{"type":"range_changed","data":{"a":"kim","b":"agent1","band":2,"was":1,"by":"agent1","why":"push back"}},{"type":"damage","data":{"participant":"kim","amount":1,"condenser":"ether","left":10,"reason":"push back","source":"agent1"}},{"type":"damage","data":{"participant":"agent1","amount":1,"condenser":"ether","left":3,"reason":"acting mental in a physical conflict","source":null}},{"type":"turn_ended","data":{"participant":"agent1"}},{"type":"turn_started","data":{"participant":"agent2","score":6}}],"author":"gm","time":"2026-12-07T14:15:25+00:00","key":null}');
INSERT INTO records VALUES('fb8f82a1',17,'roll 2d6 why=reinforcements visibility=gm','gm','2026-12-07T14:15:27+00:00',NULL,'{"version":17,"command":"roll 2d6 why=reinforcements visibility=gm","events":[{"type":"roll","data":{"expression":"2d6","dice":[5,6],"total":11,"text":"2d6 → [5, 6] = 11","why":"reinforcements"},"visibility":"gm"}],"author":"gm","time":"2026-12-07T14:15:27+00:00","key":null}');
INSERT INTO records VALUES('fb8f82a1',18,'note ''the firewall hums''','gm','2026-12-07T14:15:29+00:00',NULL,'{"version":18,"command":"note ''the firewall hums''","events":[{"type":"note","data":{"text":"the firewall hums"}}],"author":"gm","time":"2026-12-07T14:15:29+00:00","key":null}');
INSERT INTO records VALUES('fb8f82a1',19,'undo','gm','2026-12-07T14:15:32+00:00',NULL,'{"version":19,"command":"undo","events":[{"type":"undone","data":{"versions":[18]}}],"author":"gm","time":"2026-12-07T14:15:32+00:00","key":null}');
CREATE TABLE snapshots (
	conflict_id VARCHAR(40) NOT NULL, 
	version INTEGER NOT NULL, 
	format VARCHAR(200) NOT NULL, 
	state TEXT NOT NULL, 
	created VARCHAR(40) NOT NULL, 
	CONSTRAINT pk_snapshots PRIMARY KEY (conflict_id, version), 
	FOREIGN KEY(conflict_id) REFERENCES conflicts (id)
);
CREATE TABLE store_keys (
	name VARCHAR(40) NOT NULL, 
	value VARCHAR(200) NOT NULL, 
	created VARCHAR(40) NOT NULL, 
	PRIMARY KEY (name)
);
INSERT INTO store_keys VALUES('export','9da9f4ad649a388bfb5bc75b5ae3f878b0659f12988f76de9975f5251e7aa91f','2026-12-07T14:15:37+00:00');
CREATE TABLE tokens (
	id VARCHAR(40) NOT NULL, 
	campaign_id INTEGER NOT NULL, 
	digest VARCHAR(64) NOT NULL, 
	role VARCHAR(20) NOT NULL, 
	player VARCHAR(80), 
	label VARCHAR(200) NOT NULL, 
	created VARCHAR(40) NOT NULL, 
	revoked VARCHAR(40), 
	PRIMARY KEY (id), 
	FOREIGN KEY(campaign_id) REFERENCES campaigns (id), 
	UNIQUE (digest)
);
CREATE INDEX ix_conflicts_campaign_id ON conflicts (campaign_id);
CREATE INDEX ix_tokens_campaign_id ON tokens (campaign_id);
CREATE UNIQUE INDEX ix_records_author_key ON records (conflict_id, author, "key");
COMMIT;
