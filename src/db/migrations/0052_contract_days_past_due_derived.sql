DROP INDEX "contract_figures_dpd_idx";--> statement-breakpoint
ALTER TABLE "contract_figures" DROP COLUMN "dpd";--> statement-breakpoint
ALTER TABLE "contract_figures" DROP COLUMN "bucket";