-- rulings schema, version 5: rulings with their own date and author (dated
-- card rulings: "2016-03-14T07:00:00.000Z", "Sirlin").

ALTER TABLE rulings ADD COLUMN date TEXT;
ALTER TABLE rulings ADD COLUMN author TEXT;
