import { BookOpen, GraduationCap, LifeBuoy, Sparkles } from 'lucide-react';
import { useEffect } from 'react';
import { Link } from 'wouter';
import { AREAS } from '@/web/app/areas';
import { PageHeader } from '@/web/components/page-header';
import { Button } from '@/web/components/ui/button';
import { Card, CardContent } from '@/web/components/ui/card';
import { helpCentre } from '@/web/features/help/help-store';

const AREA = AREAS['/help-tutorial'];

/** /help-tutorial: opens the help centre on its Tutorials tab; the page offers its tabs again once closed. */
export default function HelpTutorialPage() {
  useEffect(() => helpCentre.open('tutorials'), []);
  return (
    <div className="w-full max-w-3xl">
      <PageHeader title={AREA.title} icon={AREA.icon} description={AREA.summary} />
      <Card>
        <CardContent className="grid grid-cols-1 gap-4 p-6">
          <p className="text-sm">
            The help centre opens over the page you are on, so you can follow a tutorial on the real screens.
            Open it from here, from the Tools menu, or anywhere with <kbd className="font-mono">Ctrl+?</kbd>.
          </p>
          <div className="flex flex-wrap gap-2">
            <Button onClick={() => helpCentre.open('tutorials')} data-testid="button-open-help-tutorials">
              <GraduationCap aria-hidden="true" />
              Tutorials
            </Button>
            <Button
              variant="outline"
              onClick={() => helpCentre.open('features')}
              data-testid="button-open-help-features"
            >
              <Sparkles aria-hidden="true" />
              What’s new
            </Button>
            <Button
              variant="outline"
              onClick={() => helpCentre.open('quick-help')}
              data-testid="button-open-help-quick"
            >
              <LifeBuoy aria-hidden="true" />
              Quick help
            </Button>
            <Button asChild variant="ghost">
              <Link href="/tutorials" data-testid="link-all-tutorials">
                <BookOpen aria-hidden="true" />
                All tutorials on one page
              </Link>
            </Button>
          </div>
        </CardContent>
      </Card>
    </div>
  );
}
