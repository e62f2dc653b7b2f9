ALTER TABLE "integrations"."integrations" ADD COLUMN "push_key" text;--> statement-breakpoint
ALTER TABLE "integrations"."integrations" ADD COLUMN "push_expires_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "integrations_push_key_idx" ON "integrations"."integrations" USING btree ("provider","push_key");