import { Moon, Sun } from 'lucide-react';
import { forwardRef } from 'react';
import { useTheme } from '@/web/app/theme';
import { Button, type ButtonProps } from '@/web/components/ui/button';

/** Switches between light and dark; the label says what a press will do. */
export const ThemeToggle = forwardRef<HTMLButtonElement, ButtonProps>(function ThemeToggle(props, ref) {
  const { resolvedTheme, setTheme } = useTheme();
  const next = resolvedTheme === 'dark' ? 'light' : 'dark';
  return (
    <Button
      ref={ref}
      variant="ghost"
      size="icon"
      aria-label={`Switch to ${next} theme`}
      data-testid="button-theme-toggle"
      {...props}
      onClick={(event) => {
        props.onClick?.(event);
        setTheme(next);
      }}
    >
      {resolvedTheme === 'dark' ? <Sun aria-hidden="true" /> : <Moon aria-hidden="true" />}
    </Button>
  );
});
