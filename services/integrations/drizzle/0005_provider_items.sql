CREATE TABLE "integrations"."provider_items" (
	"id" serial PRIMARY KEY NOT NULL,
	"integration_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"kind" text NOT NULL,
	"external_id" text NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"needs_reply" boolean DEFAULT false NOT NULL,
	"data_enc" text NOT NULL
);
--> statement-breakpoint
ALTER TABLE "integrations"."provider_items" ADD CONSTRAINT "provider_items_integration_id_integrations_id_fk" FOREIGN KEY ("integration_id") REFERENCES "integrations"."integrations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "provider_items_integration_external_key" ON "integrations"."provider_items" USING btree ("integration_id","kind","external_id");--> statement-breakpoint
CREATE INDEX "provider_items_user_at_idx" ON "integrations"."provider_items" USING btree ("user_id","at");