-- Computer seats stored as a level and a number (or the player a stand-in plays for), and
-- put into words where they are shown, in the reader's language
-- (storage.models.computer_name); before, their English names were stored
-- ("Computer (normal) 1", "Computer (expert) for Ann", an event's "Computer (normal)").
-- Every name those three forms made is converted here; a computer seat keeps a stored
-- name only if it had another (none did), and is then shown as stored. The levels are
-- the three Deckhand has had (010's CHECK), the numbers those of its largest table.

-- A finished game's seats: the name column holds a person's name, '' for a computer.
ALTER TABLE match_seats ADD COLUMN bot_number INTEGER;
ALTER TABLE match_seats ADD COLUMN stands_for TEXT;
UPDATE match_seats SET bot_number = CAST(substr(name, length(bot_level) + 13) AS INTEGER),
    name = ''
WHERE bot_level IS NOT NULL AND name IN (
    'Computer (' || bot_level || ') 1', 'Computer (' || bot_level || ') 2',
    'Computer (' || bot_level || ') 3', 'Computer (' || bot_level || ') 4',
    'Computer (' || bot_level || ') 5', 'Computer (' || bot_level || ') 6',
    'Computer (' || bot_level || ') 7', 'Computer (' || bot_level || ') 8',
    'Computer (' || bot_level || ') 9');
UPDATE match_seats SET stands_for = substr(name, length(bot_level) + 17), name = ''
WHERE bot_level IS NOT NULL AND length(name) > length(bot_level) + 16
    AND substr(name, 1, length(bot_level) + 16) = 'Computer (' || bot_level || ') for ';
UPDATE match_seats SET name = ''
WHERE bot_level IS NOT NULL AND name = 'Computer (' || bot_level || ')';

-- An event's computer entrant: named from the event's computer level.
UPDATE event_entrants SET name = '' WHERE user_id = -1;

-- The seats of every table (JSON, as storage.models writes it: {"bot":…,"name":…}).
UPDATE tables SET seats = replace(seats, '"bot":"random","name":"Computer (random) 1"}',
    '"bot":"random","number":1}')
    WHERE seats LIKE '%"bot":"random","name":%';
UPDATE tables SET seats = replace(seats, '"bot":"random","name":"Computer (random) 2"}',
    '"bot":"random","number":2}')
    WHERE seats LIKE '%"bot":"random","name":%';
UPDATE tables SET seats = replace(seats, '"bot":"random","name":"Computer (random) 3"}',
    '"bot":"random","number":3}')
    WHERE seats LIKE '%"bot":"random","name":%';
UPDATE tables SET seats = replace(seats, '"bot":"random","name":"Computer (random) 4"}',
    '"bot":"random","number":4}')
    WHERE seats LIKE '%"bot":"random","name":%';
UPDATE tables SET seats = replace(seats, '"bot":"random","name":"Computer (random) 5"}',
    '"bot":"random","number":5}')
    WHERE seats LIKE '%"bot":"random","name":%';
UPDATE tables SET seats = replace(seats, '"bot":"random","name":"Computer (random) 6"}',
    '"bot":"random","number":6}')
    WHERE seats LIKE '%"bot":"random","name":%';
UPDATE tables SET seats = replace(seats, '"bot":"random","name":"Computer (random) 7"}',
    '"bot":"random","number":7}')
    WHERE seats LIKE '%"bot":"random","name":%';
UPDATE tables SET seats = replace(seats, '"bot":"random","name":"Computer (random) 8"}',
    '"bot":"random","number":8}')
    WHERE seats LIKE '%"bot":"random","name":%';
UPDATE tables SET seats = replace(seats, '"bot":"random","name":"Computer (random) 9"}',
    '"bot":"random","number":9}')
    WHERE seats LIKE '%"bot":"random","name":%';
UPDATE tables SET seats = replace(seats, '"bot":"random","name":"Computer (random) for ',
    '"bot":"random","stands_for":"')
    WHERE seats LIKE '%"bot":"random","name":%';
UPDATE tables SET seats = replace(seats, '"bot":"random","name":"Computer (random)"}',
    '"bot":"random"}')
    WHERE seats LIKE '%"bot":"random","name":%';
UPDATE tables SET seats = replace(seats, '"bot":"normal","name":"Computer (normal) 1"}',
    '"bot":"normal","number":1}')
    WHERE seats LIKE '%"bot":"normal","name":%';
UPDATE tables SET seats = replace(seats, '"bot":"normal","name":"Computer (normal) 2"}',
    '"bot":"normal","number":2}')
    WHERE seats LIKE '%"bot":"normal","name":%';
UPDATE tables SET seats = replace(seats, '"bot":"normal","name":"Computer (normal) 3"}',
    '"bot":"normal","number":3}')
    WHERE seats LIKE '%"bot":"normal","name":%';
UPDATE tables SET seats = replace(seats, '"bot":"normal","name":"Computer (normal) 4"}',
    '"bot":"normal","number":4}')
    WHERE seats LIKE '%"bot":"normal","name":%';
UPDATE tables SET seats = replace(seats, '"bot":"normal","name":"Computer (normal) 5"}',
    '"bot":"normal","number":5}')
    WHERE seats LIKE '%"bot":"normal","name":%';
UPDATE tables SET seats = replace(seats, '"bot":"normal","name":"Computer (normal) 6"}',
    '"bot":"normal","number":6}')
    WHERE seats LIKE '%"bot":"normal","name":%';
UPDATE tables SET seats = replace(seats, '"bot":"normal","name":"Computer (normal) 7"}',
    '"bot":"normal","number":7}')
    WHERE seats LIKE '%"bot":"normal","name":%';
UPDATE tables SET seats = replace(seats, '"bot":"normal","name":"Computer (normal) 8"}',
    '"bot":"normal","number":8}')
    WHERE seats LIKE '%"bot":"normal","name":%';
UPDATE tables SET seats = replace(seats, '"bot":"normal","name":"Computer (normal) 9"}',
    '"bot":"normal","number":9}')
    WHERE seats LIKE '%"bot":"normal","name":%';
UPDATE tables SET seats = replace(seats, '"bot":"normal","name":"Computer (normal) for ',
    '"bot":"normal","stands_for":"')
    WHERE seats LIKE '%"bot":"normal","name":%';
UPDATE tables SET seats = replace(seats, '"bot":"normal","name":"Computer (normal)"}',
    '"bot":"normal"}')
    WHERE seats LIKE '%"bot":"normal","name":%';
UPDATE tables SET seats = replace(seats, '"bot":"expert","name":"Computer (expert) 1"}',
    '"bot":"expert","number":1}')
    WHERE seats LIKE '%"bot":"expert","name":%';
UPDATE tables SET seats = replace(seats, '"bot":"expert","name":"Computer (expert) 2"}',
    '"bot":"expert","number":2}')
    WHERE seats LIKE '%"bot":"expert","name":%';
UPDATE tables SET seats = replace(seats, '"bot":"expert","name":"Computer (expert) 3"}',
    '"bot":"expert","number":3}')
    WHERE seats LIKE '%"bot":"expert","name":%';
UPDATE tables SET seats = replace(seats, '"bot":"expert","name":"Computer (expert) 4"}',
    '"bot":"expert","number":4}')
    WHERE seats LIKE '%"bot":"expert","name":%';
UPDATE tables SET seats = replace(seats, '"bot":"expert","name":"Computer (expert) 5"}',
    '"bot":"expert","number":5}')
    WHERE seats LIKE '%"bot":"expert","name":%';
UPDATE tables SET seats = replace(seats, '"bot":"expert","name":"Computer (expert) 6"}',
    '"bot":"expert","number":6}')
    WHERE seats LIKE '%"bot":"expert","name":%';
UPDATE tables SET seats = replace(seats, '"bot":"expert","name":"Computer (expert) 7"}',
    '"bot":"expert","number":7}')
    WHERE seats LIKE '%"bot":"expert","name":%';
UPDATE tables SET seats = replace(seats, '"bot":"expert","name":"Computer (expert) 8"}',
    '"bot":"expert","number":8}')
    WHERE seats LIKE '%"bot":"expert","name":%';
UPDATE tables SET seats = replace(seats, '"bot":"expert","name":"Computer (expert) 9"}',
    '"bot":"expert","number":9}')
    WHERE seats LIKE '%"bot":"expert","name":%';
UPDATE tables SET seats = replace(seats, '"bot":"expert","name":"Computer (expert) for ',
    '"bot":"expert","stands_for":"')
    WHERE seats LIKE '%"bot":"expert","name":%';
UPDATE tables SET seats = replace(seats, '"bot":"expert","name":"Computer (expert)"}',
    '"bot":"expert"}')
    WHERE seats LIKE '%"bot":"expert","name":%';
