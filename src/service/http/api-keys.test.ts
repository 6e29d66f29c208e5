import { describe, expect, it } from 'vitest';
import { conversationScope } from './api-keys';

describe('conversationScope', () => {
  it('names the conversation of GET /api/conversations/{id} and of every method below it', () => {
    expect(conversationScope({ method: 'GET', path: '/api/conversations/abc' })).toBe('abc');
    expect(conversationScope({ method: 'POST', path: '/api/conversations/abc/message' })).toBe('abc');
    expect(conversationScope({ method: 'GET', path: '/api/conversations/a%20b/events/stream' })).toBe('a b');
  });

  it('names none for other methods on the conversation itself, the list, other routes or a bad encoding', () => {
    expect(conversationScope({ method: 'PATCH', path: '/api/conversations/abc' })).toBeUndefined();
    expect(conversationScope({ method: 'DELETE', path: '/api/conversations/abc' })).toBeUndefined();
    expect(conversationScope({ method: 'GET', path: '/api/conversations' })).toBeUndefined();
    expect(conversationScope({ method: 'GET', path: '/api/v1/app-conversations/abc' })).toBeUndefined();
    expect(conversationScope({ method: 'GET', path: '/api/conversations/%E0%A4%A/events' })).toBeUndefined();
  });
});
