import type { Analysis } from '@/contracts/assistant';

/** Seed sections 2-8: the Finance AI Assistant's texts, word for word where the seed gives them. */
export const ASSISTANT_TITLE = 'Finance AI Assistant';
export const INPUT_PLACEHOLDER = 'Ask me about your portfolio...';
export const LOADING_TEXT = 'Analyzing...';
export const GREETING =
  "Hello! I'm your Finance AI Assistant. I can help with payment acceleration, APR adjustments, service discount modeling and risk assessment queries. Ask a question or try one of the quick queries below.";
export const QUICK_QUERIES = [
  'Increase daily payment to $0.50',
  '20% service discount for 30 days',
  'Adjust APR to 19%',
] as const;
export const ERROR_TOAST = {
  title: 'Analysis Error',
  description: 'Failed to process your query. Please try again.',
} as const;

/** Below this confidence the confidence figure is shown as a warning. */
export const LOW_CONFIDENCE = 0.5;

/** Seed section 3: a chat message. */
export interface ChatMessage {
  type: 'user' | 'assistant';
  content: string;
  response?: Analysis;
}

/** 0.856 -> "86%". */
export function formatConfidence(confidence: number): string {
  return `${Math.round(confidence * 100)}%`;
}

/** 12 -> "12 days", 1 -> "1 day", -5 -> "-5 days" (negative: the term gets longer). */
export function formatDays(days: number): string {
  return `${days.toLocaleString('en-US')} ${Math.abs(days) === 1 ? 'day' : 'days'}`;
}
