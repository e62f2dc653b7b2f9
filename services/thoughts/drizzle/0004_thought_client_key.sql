ALTER TABLE "thoughts"."thoughts" ADD COLUMN "client_key" text;--> statement-breakpoint
CREATE UNIQUE INDEX "thoughts_user_client_key" ON "thoughts"."thoughts" USING btree ("user_id","client_key");