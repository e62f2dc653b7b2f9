CREATE TABLE "insights"."period_changes" (
	"user_id" integer NOT NULL,
	"range" text NOT NULL,
	"period_start" date NOT NULL,
	"changed_at" timestamp (6) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "period_changes_user_id_range_period_start_pk" PRIMARY KEY("user_id","range","period_start")
);
