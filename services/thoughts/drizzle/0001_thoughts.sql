CREATE TABLE "thoughts"."thoughts" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"content_enc" text NOT NULL,
	"audio_enc" text,
	"audio_mime" text,
	"is_voice" boolean DEFAULT false NOT NULL,
	"category" text DEFAULT 'personal' NOT NULL,
	"tags" text[] DEFAULT '{}'::text[] NOT NULL,
	"date" timestamp with time zone DEFAULT now() NOT NULL,
	"local_date" date NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "thoughts_user_day_idx" ON "thoughts"."thoughts" USING btree ("user_id","local_date");--> statement-breakpoint
CREATE INDEX "thoughts_user_date_idx" ON "thoughts"."thoughts" USING btree ("user_id","date");