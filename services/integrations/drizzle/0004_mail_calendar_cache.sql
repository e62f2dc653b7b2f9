CREATE TABLE "integrations"."calendar_events" (
	"id" serial PRIMARY KEY NOT NULL,
	"integration_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"event_id" text NOT NULL,
	"starts_at" timestamp with time zone NOT NULL,
	"response_status" text NOT NULL,
	"data_enc" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "integrations"."mail_messages" (
	"id" serial PRIMARY KEY NOT NULL,
	"integration_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"message_id" text NOT NULL,
	"thread_id" text NOT NULL,
	"received_at" timestamp with time zone NOT NULL,
	"needs_reply" boolean DEFAULT false NOT NULL,
	"data_enc" text NOT NULL,
	"body_enc" text
);
--> statement-breakpoint
ALTER TABLE "integrations"."integrations" ADD COLUMN "account_enc" text;--> statement-breakpoint
ALTER TABLE "integrations"."integrations" ADD COLUMN "sync_cursor" text;--> statement-breakpoint
ALTER TABLE "integrations"."integrations" ADD COLUMN "sync_request" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "integrations"."integrations" ADD COLUMN "next_sync_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "integrations"."integrations" ADD COLUMN "last_synced_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "integrations"."integrations" ADD COLUMN "sync_backoffs" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "integrations"."calendar_events" ADD CONSTRAINT "calendar_events_integration_id_integrations_id_fk" FOREIGN KEY ("integration_id") REFERENCES "integrations"."integrations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "integrations"."mail_messages" ADD CONSTRAINT "mail_messages_integration_id_integrations_id_fk" FOREIGN KEY ("integration_id") REFERENCES "integrations"."integrations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "calendar_events_integration_event_key" ON "integrations"."calendar_events" USING btree ("integration_id","event_id");--> statement-breakpoint
CREATE INDEX "calendar_events_user_starts_idx" ON "integrations"."calendar_events" USING btree ("user_id","starts_at");--> statement-breakpoint
CREATE UNIQUE INDEX "mail_messages_integration_message_key" ON "integrations"."mail_messages" USING btree ("integration_id","message_id");--> statement-breakpoint
CREATE INDEX "mail_messages_user_received_idx" ON "integrations"."mail_messages" USING btree ("user_id","received_at");