CREATE SCHEMA "auth";
--> statement-breakpoint
CREATE TABLE "auth"."outbox" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"queue" text NOT NULL,
	"job_id" text NOT NULL,
	"payload" jsonb NOT NULL,
	"request_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"claimed_until" timestamp with time zone,
	"sent_at" timestamp with time zone,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_error" text
);
--> statement-breakpoint
CREATE TABLE "auth"."user_preferences" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"ask_before_calendar_events" boolean DEFAULT true NOT NULL,
	"ask_before_emails" boolean DEFAULT true NOT NULL,
	"include_thought_content" boolean DEFAULT true NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "outbox_unsent_idx" ON "auth"."outbox" USING btree ("id") WHERE "auth"."outbox"."sent_at" is null;