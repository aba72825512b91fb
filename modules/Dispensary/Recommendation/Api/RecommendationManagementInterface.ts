import { defineContract } from '#framework';
import { RecommendationInterface, type RecommendationCreateRequest } from './Data/RecommendationInterface.js';
import { createRequestSchema, patientIdSchema } from './schemas.js';

export interface RecommendationManagementInterface {
  /**
   * Creates a recommendation for a patient of the current store (404 otherwise), in the patient's
   * store. `recommendation` is undefined when the request had no body: an empty comprehensive
   * recommendation. Every sku must name an enabled catalog product (400 naming it); a repeated
   * sku keeps its first occurrence.
   */
  create(patientId: number, recommendation?: RecommendationCreateRequest): Promise<RecommendationInterface>;
}

export const RecommendationManagementInterface = defineContract<RecommendationManagementInterface>(
  'Dispensary\\Recommendation\\Api\\RecommendationManagementInterface',
  {
    create: {
      params: [
        { name: 'patientId', schema: patientIdSchema },
        // Extension attributes of RecommendationInterface are accepted under recommendation.extension_attributes.
        { name: 'recommendation', schema: createRequestSchema, dataInterface: RecommendationInterface },
      ],
      description: 'Create a recommendation, comprehensive or simple format',
      returns: RecommendationInterface,
    },
  },
);
