CREATE SCHEMA "portability";
--> statement-breakpoint
CREATE TABLE "portability"."blob_chunks" (
	"blob_id" text NOT NULL,
	"seq" integer NOT NULL,
	"data_enc" text NOT NULL,
	CONSTRAINT "blob_chunks_blob_id_seq_pk" PRIMARY KEY("blob_id","seq")
);
--> statement-breakpoint
CREATE TABLE "portability"."blobs" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"size" integer DEFAULT 0 NOT NULL,
	"chunk_size" integer NOT NULL,
	"complete" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "portability"."outbox" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"queue" text NOT NULL,
	"job_id" text NOT NULL,
	"payload" jsonb NOT NULL,
	"request_id" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"claimed_until" timestamp with time zone,
	"claimed_by" text,
	"sent_at" timestamp with time zone,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_error" text
);
--> statement-breakpoint
CREATE TABLE "portability"."report_lines" (
	"id" serial PRIMARY KEY NOT NULL,
	"transfer_id" text NOT NULL,
	"user_id" integer NOT NULL,
	"problem" boolean DEFAULT false NOT NULL,
	"line_enc" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "portability"."transfers" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"kind" text NOT NULL,
	"status" text DEFAULT 'queued' NOT NULL,
	"progress" integer DEFAULT 0 NOT NULL,
	"step" integer DEFAULT 1 NOT NULL,
	"blob_id" text,
	"format" text,
	"message" text,
	"total" integer,
	"cursor" jsonb,
	"counts" jsonb DEFAULT '{"imported":0,"split":0,"duplicates":0,"skipped":0,"failed":0,"undated":0,"conversations":0}'::jsonb NOT NULL,
	"stalls" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "portability"."blob_chunks" ADD CONSTRAINT "blob_chunks_blob_id_blobs_id_fk" FOREIGN KEY ("blob_id") REFERENCES "portability"."blobs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "portability"."report_lines" ADD CONSTRAINT "report_lines_transfer_id_transfers_id_fk" FOREIGN KEY ("transfer_id") REFERENCES "portability"."transfers"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "outbox_unsent_idx" ON "portability"."outbox" USING btree ("id") WHERE "portability"."outbox"."sent_at" is null;--> statement-breakpoint
CREATE INDEX "report_lines_transfer_idx" ON "portability"."report_lines" USING btree ("transfer_id","id");--> statement-breakpoint
CREATE INDEX "transfers_user_idx" ON "portability"."transfers" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "transfers_open_idx" ON "portability"."transfers" USING btree ("status","updated_at") WHERE "portability"."transfers"."status" in ('queued', 'running');