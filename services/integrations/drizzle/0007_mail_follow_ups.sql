CREATE TABLE "integrations"."mail_follow_ups" (
	"id" serial PRIMARY KEY NOT NULL,
	"integration_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"thread_id" text NOT NULL,
	"message_id" text NOT NULL,
	"sent_at" timestamp with time zone NOT NULL,
	"data_enc" text NOT NULL
);
--> statement-breakpoint
ALTER TABLE "integrations"."mail_follow_ups" ADD CONSTRAINT "mail_follow_ups_integration_id_integrations_id_fk" FOREIGN KEY ("integration_id") REFERENCES "integrations"."integrations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "mail_follow_ups_integration_thread_key" ON "integrations"."mail_follow_ups" USING btree ("integration_id","thread_id");--> statement-breakpoint
CREATE INDEX "mail_follow_ups_integration_sent_idx" ON "integrations"."mail_follow_ups" USING btree ("integration_id","sent_at");