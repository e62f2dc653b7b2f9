ALTER TABLE "thoughts"."thoughts" ADD COLUMN "format" text DEFAULT 'text' NOT NULL;--> statement-breakpoint
ALTER TABLE "thoughts"."thoughts" ADD COLUMN "dedupe_key" text;--> statement-breakpoint
CREATE INDEX "thoughts_user_dedupe_key_idx" ON "thoughts"."thoughts" USING btree ("user_id","dedupe_key");