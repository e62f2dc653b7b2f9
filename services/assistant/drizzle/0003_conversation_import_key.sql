ALTER TABLE "assistant"."conversations" ADD COLUMN "import_key" text;--> statement-breakpoint
CREATE UNIQUE INDEX "conversations_user_import_key" ON "assistant"."conversations" USING btree ("user_id","import_key");--> statement-breakpoint
CREATE INDEX "conversations_user_created_idx" ON "assistant"."conversations" USING btree ("user_id","created_at");