CREATE SCHEMA "integrations";
--> statement-breakpoint
CREATE TABLE "integrations"."outbox" (
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
CREATE INDEX "outbox_unsent_idx" ON "integrations"."outbox" USING btree ("id") WHERE "integrations"."outbox"."sent_at" is null;