ALTER TABLE "thoughts"."thoughts" ALTER COLUMN "tags" DROP DEFAULT;--> statement-breakpoint
ALTER TABLE "thoughts"."thoughts" ALTER COLUMN "tags" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "thoughts"."thoughts" ADD COLUMN "tags_enc" text;--> statement-breakpoint
ALTER TABLE "thoughts"."thoughts" ADD COLUMN "tag_index" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
CREATE INDEX "thoughts_tag_index_idx" ON "thoughts"."thoughts" USING gin ("tag_index");--> statement-breakpoint
-- Rows without tags need no encryption: only rows left with plaintext tags are migrated, in code, at start-up (domain/tag-migration.ts).
UPDATE "thoughts"."thoughts" SET "tags" = NULL WHERE "tags" = '{}';
