CREATE TABLE "thoughts"."search_grams" (
	"thought_id" integer PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"grams" integer[] NOT NULL,
	"pad" text
) WITH (toast_tuple_target = 128);
--> statement-breakpoint
-- Narrow rows: every gram array goes out of line, uncompressed (random hashes do not compress);
-- the pad written with each row makes it long enough to be toasted at all (see the schema).
ALTER TABLE "thoughts"."search_grams" ALTER COLUMN "grams" SET STORAGE EXTERNAL;--> statement-breakpoint
INSERT INTO "thoughts"."search_grams" ("thought_id", "user_id", "grams", "pad")
	SELECT "id", "user_id", "search_grams", repeat(' ', 2100) FROM "thoughts"."thoughts";--> statement-breakpoint
DROP INDEX "thoughts"."thoughts_search_grams_idx";--> statement-breakpoint
ALTER TABLE "thoughts"."search_grams" ADD CONSTRAINT "search_grams_thought_id_thoughts_id_fk" FOREIGN KEY ("thought_id") REFERENCES "thoughts"."thoughts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "search_grams_grams_idx" ON "thoughts"."search_grams" USING gin ("grams");--> statement-breakpoint
ALTER TABLE "thoughts"."thoughts" DROP COLUMN "search_grams";
