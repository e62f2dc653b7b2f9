CREATE TABLE "assistant"."conversations" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"title_enc" text NOT NULL,
	"email_used" boolean DEFAULT false NOT NULL,
	"calendar_used" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "assistant"."messages" (
	"id" serial PRIMARY KEY NOT NULL,
	"conversation_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"type" text NOT NULL,
	"content_enc" text NOT NULL,
	"audio_enc" text,
	"audio_mime" text,
	"metadata" jsonb,
	"timezone_offset" integer,
	"reply_to" integer,
	"created_at" timestamp (6) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "assistant"."messages" ADD CONSTRAINT "messages_conversation_id_conversations_id_fk" FOREIGN KEY ("conversation_id") REFERENCES "assistant"."conversations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "conversations_user_updated_idx" ON "assistant"."conversations" USING btree ("user_id","updated_at");--> statement-breakpoint
CREATE INDEX "messages_conversation_idx" ON "assistant"."messages" USING btree ("conversation_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "messages_reply_to_key" ON "assistant"."messages" USING btree ("reply_to");--> statement-breakpoint
CREATE INDEX "messages_unanswered_idx" ON "assistant"."messages" USING btree ("created_at") WHERE "assistant"."messages"."type" = 'user';