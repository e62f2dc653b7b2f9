CREATE TABLE "auth"."outgoing_mail" (
	"id" text PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"message_enc" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"sent_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "auth"."password_resets" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"token_hash" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "auth"."pending_verifications" (
	"id" serial PRIMARY KEY NOT NULL,
	"email" text NOT NULL,
	"username" text NOT NULL,
	"name" text,
	"password_hash" text NOT NULL,
	"code_hash" text NOT NULL,
	"link_token_hash" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "auth"."users" (
	"id" serial PRIMARY KEY NOT NULL,
	"username" text NOT NULL,
	"name" text,
	"email" text NOT NULL,
	"password_hash" text NOT NULL,
	"is_email_verified" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "auth"."password_resets" ADD CONSTRAINT "password_resets_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "auth"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "password_resets_token_key" ON "auth"."password_resets" USING btree ("token_hash");--> statement-breakpoint
CREATE UNIQUE INDEX "pending_email_key" ON "auth"."pending_verifications" USING btree ("email");--> statement-breakpoint
CREATE UNIQUE INDEX "pending_username_key" ON "auth"."pending_verifications" USING btree (lower("username"));--> statement-breakpoint
CREATE UNIQUE INDEX "pending_link_token_key" ON "auth"."pending_verifications" USING btree ("link_token_hash");--> statement-breakpoint
CREATE UNIQUE INDEX "users_email_key" ON "auth"."users" USING btree ("email");--> statement-breakpoint
CREATE UNIQUE INDEX "users_username_key" ON "auth"."users" USING btree (lower("username"));