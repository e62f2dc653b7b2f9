CREATE TABLE "auth"."account_deletions" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"requested_at" timestamp with time zone DEFAULT now() NOT NULL,
	"done" text[] DEFAULT '{}'::text[] NOT NULL
);
