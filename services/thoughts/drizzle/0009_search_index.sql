CREATE TABLE "thoughts"."embeddings" (
	"thought_id" integer PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"model" text NOT NULL,
	"dims" integer NOT NULL,
	"vector_enc" text NOT NULL,
	"source_key" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "thoughts"."search_stats" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"docs" integer DEFAULT 0 NOT NULL,
	"words" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "thoughts"."search_terms" (
	"user_id" integer NOT NULL,
	"term" integer NOT NULL,
	"df" integer NOT NULL,
	CONSTRAINT "search_terms_user_id_term_pk" PRIMARY KEY("user_id","term")
);
--> statement-breakpoint
ALTER TABLE "thoughts"."thoughts" ADD COLUMN "search_grams" integer[] DEFAULT '{}'::int[] NOT NULL;--> statement-breakpoint
ALTER TABLE "thoughts"."thoughts" ADD COLUMN "search_words" integer[] DEFAULT '{}'::int[] NOT NULL;--> statement-breakpoint
ALTER TABLE "thoughts"."thoughts" ADD COLUMN "search_tf" smallint[] DEFAULT '{}'::smallint[] NOT NULL;--> statement-breakpoint
ALTER TABLE "thoughts"."thoughts" ADD COLUMN "search_len" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "thoughts"."thoughts" ADD COLUMN "search_key" text;--> statement-breakpoint
ALTER TABLE "thoughts"."embeddings" ADD CONSTRAINT "embeddings_thought_id_thoughts_id_fk" FOREIGN KEY ("thought_id") REFERENCES "thoughts"."thoughts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "embeddings_user_model_updated_idx" ON "thoughts"."embeddings" USING btree ("user_id","model","updated_at");--> statement-breakpoint
CREATE INDEX "thoughts_search_grams_idx" ON "thoughts"."thoughts" USING gin ("search_grams");--> statement-breakpoint
CREATE INDEX "thoughts_search_words_idx" ON "thoughts"."thoughts" USING gin ("search_words");--> statement-breakpoint
CREATE INDEX "thoughts_user_search_key_idx" ON "thoughts"."thoughts" USING btree ("user_id","search_key");--> statement-breakpoint
CREATE INDEX "thoughts_user_month_day_idx" ON "thoughts"."thoughts" USING btree ("user_id",(extract(month from "local_date")),(extract(day from "local_date")));