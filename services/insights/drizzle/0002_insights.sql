CREATE TABLE "insights"."insights" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"range" text NOT NULL,
	"period_start" date NOT NULL,
	"period_end" date NOT NULL,
	"status" text NOT NULL,
	"request" integer DEFAULT 1 NOT NULL,
	"requested_at" timestamp (6) with time zone DEFAULT now() NOT NULL,
	"engine" text,
	"content_enc" text,
	"source_at" timestamp (6) with time zone,
	"source_count" integer,
	"source_changed_at" timestamp (6) with time zone,
	"generated_at" timestamp with time zone
);
--> statement-breakpoint
CREATE UNIQUE INDEX "insights_period_key" ON "insights"."insights" USING btree ("user_id","range","period_start");--> statement-breakpoint
CREATE INDEX "insights_pending_idx" ON "insights"."insights" USING btree ("requested_at") WHERE "insights"."insights"."status" = 'pending';