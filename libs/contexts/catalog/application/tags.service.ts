import { deleteRecord } from '#platform/events/record-changes';
import { Injectable, OnModuleInit } from '@nestjs/common';
import { EventPublisher } from '#platform/events/event-publisher';
import { ResourceRegistry } from '#platform/http/expand/expand-registry';
import { ListQueryDto } from '#platform/http/list/list-query.dto';
import { TransactionHost } from '#platform/persistence/transaction-host';
import { normalizeTagColor, normalizeTagName } from '../domain/tag';
import { missingReference } from '../domain/catalog-error';
import { TagAssignmentRepository } from '../infrastructure/tag-assignment.repository';
import { TagRepository } from '../infrastructure/tag.repository';
import { TagResource, toTagResource } from './tag.presenter';
import { allRecords, ResourceReads } from '#platform/http/list/resource-reads';
import type { TagRecord } from '../infrastructure/tag.entity';

/** The resources tags attach to. */
export type TaggableResource = 'account' | 'product' | 'order';

/** The body of a request attaching a tag to a resource. */
export interface TagRef {
  tag_id: string;
}

export interface TagChanges {
  name?: string;
  color?: string | null;
}

/** Tags: labels that integrators attach to accounts, products and orders. */
@Injectable()
export class TagsService extends ResourceReads<TagRecord, TagResource, ListQueryDto> implements OnModuleInit {
  constructor(
    private readonly tags: TagRepository,
    private readonly assignments: TagAssignmentRepository,
    private readonly tx: TransactionHost,
    private readonly events: EventPublisher,
    private readonly resources: ResourceRegistry,
  ) {
    super(allRecords(tags), toTagResource);
  }

  onModuleInit(): void {
    this.resources.registerRecords('tag', this.tags, toTagResource);
  }

  async create(input: { name: string; color?: string | null }): Promise<TagResource> {
    return this.tx.run(async () => {
      const tag = await this.tags.create({
        name: normalizeTagName(input.name),
        color: normalizeTagColor(input.color) ?? null,
      });
      const resource = toTagResource(tag);
      await this.events.publish('setting.tag.created', resource);
      return resource;
    });
  }

  /**
   * Creates several tags at once (bulk imports): the rules of create(), one setting.tag.created
   * each, but the tags written with one multi-row INSERT and the events with one outbox INSERT.
   */
  async createMany(inputs: readonly { name: string; color?: string | null }[]): Promise<TagResource[]> {
    return this.tx.run(async () => {
      const tags = await this.tags.createMany(
        inputs.map((input) => ({
          name: normalizeTagName(input.name),
          color: normalizeTagColor(input.color) ?? null,
        })),
      );
      const resources = tags.map(toTagResource);
      await this.events.publishMany(resources.map((object) => ({ type: 'setting.tag.created', object })));
      return resources;
    });
  }

  async update(id: string, changes: TagChanges): Promise<TagResource> {
    return this.tx.run(async () => {
      const tag = await this.tags.getForUpdate(id);
      const previous: Record<string, unknown> = {};
      if (changes.name !== undefined && normalizeTagName(changes.name) !== tag.name) {
        previous.name = tag.name;
        tag.name = normalizeTagName(changes.name);
      }
      if (changes.color !== undefined && normalizeTagColor(changes.color) !== tag.color) {
        previous.color = tag.color;
        tag.color = normalizeTagColor(changes.color) ?? null;
      }
      if (Object.keys(previous).length === 0) return toTagResource(tag);
      const resource = toTagResource(await this.tags.save(tag));
      await this.events.publish('setting.tag.updated', resource, previous);
      return resource;
    });
  }

  /** Permanent: the tag is detached from every resource (the assignments cascade). */
  async delete(id: string): Promise<{ id: string; object: 'tag'; deleted: true }> {
    return deleteRecord(this.tx, this.events, this.tags, id, {
      present: toTagResource,
      event: 'setting.tag.deleted',
      object: 'tag',
    });
  }

  /**
   * Attaches a tag to a resource of the caller's entity and mode; true when newly attached.
   * The caller checks that the resource exists; an unknown tag is 400 on `tag_id`.
   */
  async attach(resourceType: TaggableResource, resourceId: string, tagId: string): Promise<boolean> {
    return this.tx.run(async () => {
      if (!(await this.tags.findById(tagId))) throw missingReference('tag_id', 'tag', tagId);
      return this.assignments.insert(resourceType, resourceId, tagId);
    });
  }

  /** Detaches a tag from a resource; false when it was not attached. */
  async detach(resourceType: TaggableResource, resourceId: string, tagId: string): Promise<boolean> {
    return this.tx.run(() => this.assignments.remove(resourceType, resourceId, tagId));
  }

  /** The tag ids of each resource (one query for the batch), in the order they were attached. */
  async tagIdsOf(
    resourceType: TaggableResource,
    resourceIds: readonly string[],
  ): Promise<Map<string, string[]>> {
    return this.assignments.tagIdsOf(resourceType, resourceIds);
  }
}
