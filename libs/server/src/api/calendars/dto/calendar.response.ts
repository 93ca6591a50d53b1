import { ApiProperty } from '@nestjs/swagger';
import { CalendarRecord } from '@app/database';
import { CalendarListResource, CalendarResource } from '@punctual/contract';

export class CalendarResponse implements CalendarResource {
  @ApiProperty({ example: 'de-holidays' }) name: string;
  @ApiProperty({ type: [String], example: ['2027-01-01', '2027-12-25'], description: 'In order, each once' }) dates: string[];
  @ApiProperty({ type: 'string', nullable: true }) description: string | null;
  @ApiProperty({ format: 'date-time' }) updatedAt: string;

  static from(calendar: CalendarRecord): CalendarResponse {
    return { name: calendar.name, dates: calendar.dates, description: calendar.description, updatedAt: calendar.updatedAt.toISOString() };
  }
}

export class CalendarListResponse implements CalendarListResource {
  @ApiProperty({ type: [CalendarResponse], description: 'By name' }) items: CalendarResponse[];
  @ApiProperty({ type: 'string', nullable: true, description: 'Pass as cursor for the next page; null on the last page' }) nextCursor: string | null;

  static from(page: { items: CalendarRecord[]; nextCursor: string | null }): CalendarListResponse {
    return { items: page.items.map(CalendarResponse.from), nextCursor: page.nextCursor };
  }
}
