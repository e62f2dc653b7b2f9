CREATE TABLE "integrations"."mail_contacts" (
	"id" serial PRIMARY KEY NOT NULL,
	"integration_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"address_key" text NOT NULL,
	"last_written_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "integrations"."mail_contacts" ADD CONSTRAINT "mail_contacts_integration_id_integrations_id_fk" FOREIGN KEY ("integration_id") REFERENCES "integrations"."integrations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "mail_contacts_integration_address_key" ON "integrations"."mail_contacts" USING btree ("integration_id","address_key");--> statement-breakpoint
CREATE INDEX "mail_contacts_user_address_idx" ON "integrations"."mail_contacts" USING btree ("user_id","address_key");